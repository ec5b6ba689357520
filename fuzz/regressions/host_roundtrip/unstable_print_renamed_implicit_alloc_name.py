# Was not a print fixed point: the second `b` printed as `b_1 = pld.tensor.alloc_window_buffer(1,
# name="b")` (its implicit name written out), which read back as an explicit name differing from
# the variable and then printed as `b_1 = pl._dump.alloc_window_buffer(1, name="b")`. (Found by
# host_parse_errors_test's mutation test on tests/corpus/host/19_err_alloc_form.py.)
@pl.program
class P:
    @pl.function
    def f(self):
        b = pld.tensor.alloc_window_buffer(1)
        b = pld.tensor.alloc_window_buffer(1)
