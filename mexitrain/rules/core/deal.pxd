# Declarations for the optional compiled build (setup.py, MEXITRAIN_COMPILE=1) only: Cython
# reads them beside deal.py, plain Python never does. No code: the shuffle's indices as C longs.
# Only types that every value the .py gives them already has (no None, no big ints).

cimport cython
from .compact cimport Core
from .lookup cimport Lookup

@cython.locals(steps=list, i=long, n=long, k=long, j=long, size=long)
cpdef shuffle(rng, list x)
@cython.locals(steps=list, i=long, n=long, k=long, j=long, size=long, pool=list, out=list)
cpdef list permuted(rng, list x)
@cython.locals(tab=Lookup)
cpdef start_round(Core c, number)
