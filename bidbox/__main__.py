import sys

from bidbox.cli import main

sys.exit(main())
