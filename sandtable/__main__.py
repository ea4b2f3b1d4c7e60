import sys
from sandtable.cli import main
sys.exit(main())
