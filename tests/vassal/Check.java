import java.awt.Component;
import java.awt.Container;
import java.awt.Graphics2D;
import java.awt.Point;
import java.awt.Rectangle;
import java.awt.Robot;
import java.awt.Window;
import java.awt.event.InputEvent;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.InputStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import javax.imageio.ImageIO;
import javax.swing.JDialog;
import javax.swing.JFrame;
import javax.swing.JLabel;
import javax.swing.KeyStroke;
import javax.swing.SwingUtilities;
import javax.swing.text.JTextComponent;

import VASSAL.Info;
import VASSAL.build.GameModule;
import VASSAL.build.module.BasicLogger;
import VASSAL.build.module.GameState;
import VASSAL.build.module.NotesWindow;
import VASSAL.build.module.PredefinedSetup;
import VASSAL.build.module.PrototypesContainer;
import VASSAL.build.module.map.Zoomer;
import VASSAL.build.module.turn.TurnTracker;
import VASSAL.build.widget.PieceSlot;
import VASSAL.command.AddPiece;
import VASSAL.configure.Configurer;
import VASSAL.configure.ValidationReport;
import VASSAL.counters.Deck;
import VASSAL.counters.Decorator;
import VASSAL.counters.GamePiece;
import VASSAL.counters.PieceCloner;
import VASSAL.counters.Properties;
import VASSAL.counters.Stack;
import VASSAL.counters.UsePrototype;
import VASSAL.launch.BasicModule;
import VASSAL.launch.StandardConfig;
import VASSAL.tools.DataArchive;
import VASSAL.tools.ErrorDialog;
import VASSAL.tools.bug.BugHandler;

/**
 * The VASSAL engine as a test oracle for one module: java Check MODULE EXPECTED.tsv [SETUP SHOT.png].
 * Fails (exit 1, a FAIL line each) on any bug the engine reports, any dialog it opens, a validation
 * warning of the module editor, a piece it cannot build or draw, a prototype it cannot find, a piece
 * or deck it re-encodes otherwise than written, a setup that does not start, and a setup piece that is
 * missing, not at a grid point named as expected, shown or hidden wrongly, or outside its deck. It
 * prints each setup's turn track and notes as the engine read them, for the test to compare. WARN
 * and ERROR lines of the engine's log are failed by the Python test that runs this (tests/vassalkit.py).
 */
public class Check {
  static final List<String> problems = new ArrayList<>();

  static void fail(String what) {
    problems.add(what);
    System.out.println("FAIL " + what);
  }

  public static void main(String[] args) throws Exception {
    ErrorDialog.addBugHandler(new BugHandler() {
      public boolean accept(Throwable t) { return true; }
      public void handle(Throwable t) { fail("engine bug: " + t); t.printStackTrace(System.out); }
    });
    Thread.setDefaultUncaughtExceptionHandler((th, t) -> fail("uncaught: " + t));
    SwingUtilities.invokeAndWait(() -> {
      try {
        run(args);
      }
      catch (Throwable t) {
        fail("checker: " + t);
        t.printStackTrace(System.out);
      }
    });
    Thread.sleep(1500);  // dialogs and bug reports the engine queued on the event thread
    SwingUtilities.invokeAndWait(() -> {
      for (Window w : Window.getWindows()) {
        if (w instanceof JDialog && w.isVisible() && !snapshotWarning((JDialog) w)) {
          fail("dialog: " + ((JDialog) w).getTitle() + " " + describe(w) + " (engine " + Info.getVersion() + ", module "
            + GameModule.getGameModule().getAttributeValueString(GameModule.VASSAL_VERSION_CREATED) + ")");
        }
      }
    });
    if (args.length > 3) {
      SwingUtilities.invokeAndWait(() -> {  // the snapshot's own warning, tolerated above, is not in the picture
        for (Window w : Window.getWindows()) if (w instanceof JDialog && w.isVisible()) w.dispose();
      });
      screenshot(args[3]);
    }
    System.out.println(problems.isEmpty() ? "CHECK OK" : "CHECK FAILED: " + problems.size() + " problem(s)");
    System.exit(problems.isEmpty() ? 0 : 1);
  }

  /**
   * The oracle is a 3.6.0 snapshot: a module stamped for the 3.6.0 release is "newer" to it, and it says so.
   * That one warning is the oracle's, not the module's; every released VASSAL from 3.6.0 on stays silent.
   */
  static boolean snapshotWarning(JDialog d) {
    final String running = Info.getVersion();
    final String stamped = GameModule.getGameModule().getAttributeValueString(GameModule.VASSAL_VERSION_CREATED);
    return "Version Mismatch".equals(d.getTitle()) && running.contains("-SNAPSHOT")
      && running.startsWith(stamped + "-");
  }

  static String describe(Container c) {
    final StringBuilder b = new StringBuilder();
    for (Component k : c.getComponents()) {
      if (k instanceof JLabel) b.append(((JLabel) k).getText()).append(' ');
      if (k instanceof JTextComponent) b.append(((JTextComponent) k).getText()).append(' ');
      if (k instanceof Container) b.append(describe((Container) k));
    }
    return b.toString();
  }

  static void run(String[] args) throws Exception {
    final Constructor<?> menus =  // the menus the player window asks for
      Class.forName("VASSAL.launch.Player$PlayerMenuManager").getDeclaredConstructor();
    menus.setAccessible(true);
    menus.newInstance();
    Info.setConfig(new StandardConfig());  // the engine's own version, as the player has it
    GameModule.init(new BasicModule(new DataArchive(args[0])));
    final GameModule mod = GameModule.getGameModule();
    // a player's preference, asked when a game starts: "start a log file?"
    mod.getPrefs().setValue(BasicLogger.PROMPT_NEW_LOG_START, Boolean.FALSE);
    final ValidationReport report = new ValidationReport();
    mod.validate(mod, report);  // what the module editor reports when it saves a module
    for (String warning : report.getWarnings()) fail("validation: " + warning);
    int slots = 0;
    for (PieceSlot slot : mod.getAllDescendantComponentsOf(PieceSlot.class)) {
      checkSlot(slot);
      slots++;
    }
    System.out.println("pieces " + slots);
    final Map<String, List<String[]>> expected = new HashMap<>();
    for (String line : Files.readAllLines(new File(args[1]).toPath(), StandardCharsets.UTF_8)) {
      final String[] f = line.split("\t");
      expected.computeIfAbsent(f[0], k -> new ArrayList<>()).add(f);
    }
    final List<PredefinedSetup> setups = new ArrayList<>(mod.getAllDescendantComponentsOf(PredefinedSetup.class));
    if (args.length > 2) {  // the one to show last: it stays loaded for the screenshot
      setups.sort((a, b) -> Boolean.compare(a.getAttributeValueString(PredefinedSetup.FILE).contains(args[2]),
                                            b.getAttributeValueString(PredefinedSetup.FILE).contains(args[2])));
    }
    for (PredefinedSetup setup : setups) {
      final String file = setup.getAttributeValueString(PredefinedSetup.FILE);
      checkSetup(setup, file, expected.getOrDefault(file, List.of()));
      expected.remove(file);
    }
    for (String file : expected.keySet()) fail("no predefined setup " + file);
  }

  /** Build the piece, resolve its prototypes, re-encode it, draw each face. */
  static void checkSlot(PieceSlot slot) {
    final String name = slot.getConfigureName();
    final GamePiece p = slot.getPiece();
    if (p == null) { fail("piece " + name + ": not built"); return; }
    final String again = GameModule.getGameModule().encode(new AddPiece(p));
    if (!again.equals(slot.getPieceDefinition())) {
      fail("piece " + name + ": re-encoded differently\n  written: " + slot.getPieceDefinition() + "\n  engine:  " + again);
    }
    for (GamePiece q = p; q instanceof Decorator; q = ((Decorator) q).getInner()) {
      if (q instanceof UsePrototype) {
        final String proto = ((UsePrototype) q).getPrototypeName();
        if (PrototypesContainer.getPrototype(proto) == null) fail("piece " + name + ": no prototype " + proto);
      }
    }
    final GamePiece full = PieceCloner.getInstance().clonePiece(p);
    for (int face = 0; face < 2; face++) {
      measure("piece " + name + (face == 0 ? "" : " flipped"), full);
      full.keyEvent(KeyStroke.getKeyStroke('F', InputEvent.CTRL_DOWN_MASK));
    }
  }

  static void measure(String what, GamePiece p) {
    final Rectangle r = p.boundingBox();
    if (r.width < 8 || r.height < 8) { fail(what + ": image " + r.width + "x" + r.height); return; }
    final BufferedImage img = new BufferedImage(r.width, r.height, BufferedImage.TYPE_INT_ARGB);
    final Graphics2D g = img.createGraphics();
    p.draw(g, -r.x, -r.y, null, 1.0);
    g.dispose();
    int opaque = 0;
    for (int x = 0; x < r.width; x += 2) {
      for (int y = 0; y < r.height; y += 2) {
        if ((img.getRGB(x, y) >>> 24) > 0) opaque++;
      }
    }
    if (opaque * 8 < r.width * r.height / 4) fail(what + ": image nearly empty (" + opaque + " samples)");
  }

  static void load(PredefinedSetup setup) throws Exception {
    final GameState gs = GameModule.getGameModule().getGameState();
    if (gs.isGameStarted()) {
      gs.setModified(false);
      gs.setup(false);
    }
    gs.loadGameInForeground(setup.getConfigureName(), setup.getSavedGameContents());
  }

  /** Start a game from the setup; every piece re-encodes as written and stands where expected. */
  static void checkSetup(PredefinedSetup setup, String file, List<String[]> expected) throws Exception {
    final Map<String, String> written = new HashMap<>();
    try (InputStream in = setup.getSavedGameContents(); ZipInputStream z = new ZipInputStream(in)) {
      for (ZipEntry e = z.getNextEntry(); e != null; e = z.getNextEntry()) {
        if (!e.getName().equals("savedGame")) continue;
        final ByteArrayOutputStream b = new ByteArrayOutputStream();
        z.transferTo(b);
        for (String cmd : b.toString(StandardCharsets.UTF_8).split("\u001b")) {
          if (cmd.startsWith("+/")) written.put(cmd.substring(2, cmd.indexOf('/', 2)), cmd);
        }
      }
    }
    load(setup);
    final GameState gs = GameModule.getGameModule().getGameState();
    if (!gs.isGameStarted()) { fail(file + ": the game did not start"); return; }
    int pieces = 0;
    int decks = 0;
    for (GamePiece p : gs.getAllPieces()) {
      if (p instanceof Deck) {
        decks++;
        final String again = GameModule.getGameModule().encode(new AddPiece(p));
        if (!again.equals(written.get(p.getId()))) {
          fail(file + ": deck " + p.getId() + " re-encoded differently\n  written: " + written.get(p.getId()) + "\n  engine:  " + again);
        }
        continue;
      }
      if (p instanceof Stack) continue;
      pieces++;
      final String again = GameModule.getGameModule().encode(new AddPiece(p));
      if (!again.equals(written.get(p.getId()))) {
        fail(file + ": piece " + p.getId() + " re-encoded differently\n  written: " + written.get(p.getId()) + "\n  engine:  " + again);
      }
    }
    for (String[] e : expected) {
      final GamePiece p = gs.getPieceForId(e[1]);
      if (p == null || p.getMap() == null) { fail(file + ": piece " + e[1] + " not on a map"); continue; }
      final VASSAL.build.module.Map map = p.getMap();
      final Point at = p.getPosition();
      final String where = map.locationName(at);
      if (!map.getMapName().equals(e[2]) || !e[3].equals(where)) {
        fail(file + ": piece " + e[1] + " (" + p.getName() + ") at " + map.getMapName() + " " + where + ", expected " + e[2] + " " + e[3]);
      }
      final boolean unseen = Boolean.TRUE.equals(p.getProperty(Properties.INVISIBLE_TO_ME));
      if (unseen != "hidden".equals(e[4])) {  // an observer sees no hidden FO and no minefield, and all else
        fail(file + ": piece " + e[1] + " (" + p.getName() + ") is " + (unseen ? "hidden" : "shown") + ", expected " + e[4]);
      }
      final String deck = p.getParent() instanceof Deck ? ((Deck) p.getParent()).getDeckName() : "-";
      if (!deck.equals(e[5])) fail(file + ": piece " + e[1] + " (" + p.getName() + ") in deck " + deck + ", expected " + e[5]);
      if (map.findBoard(at) == null || !map.snapTo(at).equals(at)) {
        fail(file + ": piece " + e[1] + " at " + at + " is not at a grid point (snaps to " + map.snapTo(at) + ")");
      }
    }
    if (pieces != expected.size()) fail(file + ": " + pieces + " pieces in the game, " + expected.size() + " expected");
    System.out.println("setup " + file + ": " + pieces + " pieces placed, " + decks + " decks");
    for (TurnTracker t : GameModule.getGameModule().getComponentsOf(TurnTracker.class)) {
      System.out.println("turn " + file + ": " + t.getState());  // the engine's reading of the save's turn track
    }
    for (NotesWindow w : GameModule.getGameModule().getComponentsOf(NotesWindow.class)) {
      final Field f = NotesWindow.class.getDeclaredField("scenarioNotes");
      f.setAccessible(true);  // what the Notes window shows as the scenario's notes
      final String notes = (String) ((Configurer) f.get(w)).getValue();
      System.out.println("notes " + file + ": " + notes.split("\n", 2)[0] + " (" + notes.split("\n").length + " lines)");
    }
  }

  static void screenshot(String path) {
    try {
      SwingUtilities.invokeAndWait(() -> {
        final JFrame frame = GameModule.getGameModule().getPlayerWindow();
        frame.setBounds(0, 0, 1600, 1000);
        frame.setVisible(true);
        frame.toFront();
        for (VASSAL.build.module.Map m : VASSAL.build.module.Map.getMapList()) {  // more of the battlefield
          for (Zoomer z : m.getComponentsOf(Zoomer.class)) z.zoomOut();
        }
      });
      final Robot robot = new Robot();
      robot.delay(3000);
      robot.waitForIdle();
      ImageIO.write(robot.createScreenCapture(new Rectangle(0, 0, 1600, 1000)), "png", new File(path));
    }
    catch (Exception e) {
      fail("screenshot: " + e);
    }
  }
}
