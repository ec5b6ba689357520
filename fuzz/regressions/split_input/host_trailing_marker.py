@pl.program
class P:
    pass
# -----
