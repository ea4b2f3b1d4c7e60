package org.netbeans.spi.wizard;

public final class WizardController {
  public void setProblem(String problem) { }
  public void setForwardNavigationMode(int mode) { }
}
