package org.netbeans.spi.wizard;

/** Compile-time stand-in: the engine loads its wizard classes with the module, only the interactive new-game wizard runs them. */
public abstract class WizardPanelProvider {
  protected WizardPanelProvider(String title, String step, String description) { }
  protected WizardPanelProvider(String[] steps, String[] descriptions) { }
  protected WizardPanelProvider(String title, String[] steps, String[] descriptions) { }
  public final Wizard createWizard() { throw new UnsupportedOperationException("wizard stub"); }
}
