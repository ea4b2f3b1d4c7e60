import sys

try:  # Ctrl-C before the command line has loaded: exit 130 quietly, as after
    from sandtable.cli import main
except KeyboardInterrupt:
    sys.stderr.write("\n")
    sys.exit(130)
sys.exit(main())
