package org.netbeans.spi.wizard;

public class WizardPage extends javax.swing.JPanel {
  public WizardPage(String title) { }
  protected final void putWizardData(Object key, Object value) { }
  public interface WizardResultProducer { }
}
