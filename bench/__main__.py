"""``python -m bench``: run the benchmark and print its Markdown table."""

import sys

from bench.run import main

sys.exit(main())
