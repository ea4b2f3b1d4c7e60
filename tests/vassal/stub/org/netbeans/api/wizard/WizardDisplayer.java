package org.netbeans.api.wizard;

public abstract class WizardDisplayer {
  public static Object showWizard(org.netbeans.spi.wizard.Wizard w, java.awt.Rectangle r) { throw new UnsupportedOperationException("wizard stub"); }
  public static Object showWizard(org.netbeans.spi.wizard.Wizard w, java.awt.Rectangle r, javax.swing.Action help, java.util.Map settings) { throw new UnsupportedOperationException("wizard stub"); }
}
