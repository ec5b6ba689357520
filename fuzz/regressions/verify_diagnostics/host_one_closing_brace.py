# expected-error {{x}
@pl.program
class P:
    pass
