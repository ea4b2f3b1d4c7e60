package org.netbeans.api.wizard;

public abstract class WizardDisplayer {
  public static Object showWizard(org.netbeans.spi.wizard.Wizard w, java.awt.Rectangle r) { return null; }
  public static Object showWizard(org.netbeans.spi.wizard.Wizard w, java.awt.Rectangle r, javax.swing.Action help, java.util.Map settings) { return null; }
}
