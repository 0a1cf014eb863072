# Declarations for the optional compiled build (setup.py, MEXITRAIN_COMPILE=1) only: Cython
# reads them beside playout.py, plain Python never does. No code: the rollout's core typed as
# a Core, its small ints (seat, phase, train, line, lay code, pips) as C longs.
# Only types that every value the .py gives them already has (no None, no big ints); the
# scores stay Python numbers (ints and the weights' floats, added in the same order).

cimport cython
from ..rules.core.compact cimport Core
from ..rules.core.lookup cimport Lookup

# the phase and move codes imported from the rules core, as C constants here
cdef long CHAIN, DRAWN, FOLLOW_UP, FOLLOW_UP_DRAWN, SWAN, TURN
cdef long M_DRAW, M_PASS, M_SKIP
cdef list LAY, LAY_DOUBLE

@cython.locals(bone=list, top=long, t=long, i=long, u=long)
cpdef long draw_from_queue(Core c, list queue, long p, list where) except? -1
@cython.locals(i=long, t=long, where=list)
cpdef list positions(Core c)
@cython.locals(seat=long, steps=long, done=long, number=long, where=list)
cpdef run(Core c, queues, budget, long max_steps=*, weights=*)
@cython.locals(phase=long)
cpdef decide(Core c, list ms, dict book, budget, w)
@cython.locals(tab=Lookup, size=long, k=long, li=long, laid_count=long, hand_size=long,
               plan_line=long)
cpdef own_plan(Core c, long seat, dict book, budget)
@cython.locals(tab=Lookup, seat=long, mate=long, phase=long, n=long, plan_len=long,
               plan_line=long, ti=long, li=long, lay=long, x=long, y=long, after=long,
               loss=long, i=long)
cpdef best_play(Core c, list ps, dict book, budget, w)

cdef list _BIT_INDEX

cdef class PlanSearch:
    cdef public list halves, near, weights, local, moves, best_path, path
    cdef public object all_moves
    cdef public set seen
    cdef public bint wild
    cdef public long budget, nodes, best_len, best_pips, most, most_pips
    @cython.locals(local=list)
    cpdef list moves_at(self, long end)
    @cython.locals(weights=list, near=list, count=long, total=long, rest=long, low=long,
                   comp=long, frontier=long, j=long)
    cpdef bound(self, long free, long end)
    @cython.locals(most=long, new_end=long, i=long, stop=bint, path=list, seen=set, cand=list,
                   order=list, b=long, h=long, nf=long, key=long, halves=list)
    cpdef bint search(self, long end, long free, long length, long weight) except -1
