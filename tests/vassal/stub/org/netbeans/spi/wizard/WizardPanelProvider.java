package org.netbeans.spi.wizard;

/**
 * Stand-in for the NetBeans wizard library, which VASSAL's engine loads with a module but which is in neither
 * Debian nor PyPI. Only the interactive wizard (choose a side when a game starts) uses it: here it shows
 * nothing, so a game starts with the player an observer, which is what the tests check from.
 */
public abstract class WizardPanelProvider {
  protected WizardPanelProvider(String title, String step, String description) { }
  protected WizardPanelProvider(String[] steps, String[] descriptions) { }
  protected WizardPanelProvider(String title, String[] steps, String[] descriptions) { }
  public final Wizard createWizard() { return null; }
}
