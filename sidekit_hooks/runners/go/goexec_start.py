"""What runners/go/goexec.sh starts: runners/go/goexec.py, imported rather than run as a file.

A file run as a script is compiled afresh on every start (about 1.4 ms of a red binary's CPU for
goexec.py); an imported module comes from its cached bytecode. So this file stays a few lines.
The cyclic garbage collector is off: the process lives for one binary's output, its objects are
freed by their counts, and the collections a red binary's thousands of events set off cost about
a tenth of its CPU.
"""

import gc
import os
import sys

if (
    __name__ == "__main__"
):  # `python -I -S .../runners/go/goexec_start.py ARGS`: our package found by path
    gc.disable()
    sys.path.insert(
        0,
        os.path.dirname(
            os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        ),
    )
    from sidekit_hooks.runners.go import goexec as goexec

    goexec.run(sys.argv[1:])
