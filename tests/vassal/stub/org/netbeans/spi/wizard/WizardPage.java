package org.netbeans.spi.wizard;

public class WizardPage extends javax.swing.JPanel {
  public WizardPage(String title) { }
  public interface WizardResultProducer { }
}
