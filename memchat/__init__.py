"""memchat: a local-first terminal chat assistant with a memory you can see."""

import os as _os

__version__ = "0.1.0"

# llama.cpp's threads (OpenMP) and NumPy's (OpenBLAS) share the same cores, and each pool spins after
# its work by default. Whichever runs next waits for the other to give up: at 100k memories the vector
# scan after an embedding took 8.6 ms instead of 5, and an embedding after the scan 115 ms instead of
# 21. Short waits cost neither pool anything measurable (decode 88 tok/s either way). Set before
# NumPy or llama.cpp load, which is why it is here; a value already in the environment wins.
_os.environ.setdefault("GOMP_SPINCOUNT", "10000")
_os.environ.setdefault("OPENBLAS_THREAD_TIMEOUT", "4")
