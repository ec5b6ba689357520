# Printed a program that did not parse: `import pypto.language.distributed as pl` made `pl` an alias
# of pld for the reader, so the `pl.UnknownType` the printer writes for the pl._dump.call of
# `self.a.b` read back as `pld.UnknownType` ("unknown type 'pld.UnknownType'"). Found by
# fuzz_host_roundtrip.
import pypto.language.distributed as pl` makes `pl` an
# alias of pld for the reader (alias_path), so the `pl.UnknownType` the printer writes for the
# pl._dump.call of `self.a.b` reads as `pld.UnknownType`: "unknown type 'pld.UnknownType'".
# (The printer also appends `import pypto.language as pl`, which rebinds `pl` in Python; the
# reader keeps treating it as the alias.) Found by fuzz_host_roundtrip.
import pypto.language.distributed as pl


@pl.program
class P:
    @pl.function
    def f(self):
        self.a.b()
