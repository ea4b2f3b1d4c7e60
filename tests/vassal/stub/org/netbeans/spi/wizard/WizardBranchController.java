package org.netbeans.spi.wizard;

public abstract class WizardBranchController {
  protected WizardBranchController(WizardPanelProvider base) { }
  protected Wizard getWizardForStep(String step, java.util.Map settings) { return null; }
  public final Wizard createWizard() { return null; }
}
