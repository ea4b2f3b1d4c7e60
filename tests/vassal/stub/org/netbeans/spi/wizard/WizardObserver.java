package org.netbeans.spi.wizard;

public interface WizardObserver { }
