# Declarations for the optional compiled build (setup.py, MEXITRAIN_COMPILE=1) only: Cython
# reads them beside lookup.py, plain Python never does. No code: the fields of Lookup (every self.X of Lookup.__init__; tests/rules/test_compiled.py holds them equal).
# Only types that every value the .py gives them already has (no None, no big ints).

cdef class Lookup:
    cdef public object _actions
    cdef public object _events
    cdef public object _swan_orders
    cdef public object all_bits
    cdef public object bit
    cdef public object bit_of_lay
    cdef public object both_stuck
    cdef public object branching
    cdef public object chain_opening
    cdef public object code
    cdef public object delayed
    cdef public object descending
    cdef public object double_mask
    cdef public object each
    cdef public object first_turn_chain
    cdef public object fit
    cdef public object id_of
    cdef public object lay_info
    cdef public object lays
    cdef public object must_satisfy
    cdef public object n
    cdef public object next_seat
    cdef public object one_lay
    cdef public object partner
    cdef public object pipmask
    cdef public object pips
    cdef public object public_start
    cdef public object round_count
    cdef public object rules
    cdef public object satmask
    cdef public object set
    cdef public object sides
    cdef public object simple
    cdef public object simultaneous
    cdef public object size
    cdef public object swan
    cdef public object team
    cdef public object team_bits
    cdef public object teams
    cdef public object tiles
    cdef public object trunk_base
    cdef public object trunk_li
    cdef public object trunk_lines
    cdef public object trunk_ti
    cdef public object until_blocked
    cdef public object usable
    cdef public object wild
