import sys

from anonymizer.cli import main

sys.exit(main())
