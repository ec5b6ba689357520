"""One named check per line, shared by the driver's Python tests (driver_test.py, dot_test.py)."""


class Checks:
    def __init__(self):
        self.failures = 0

    def __call__(self, name, cond, detail=""):
        print(("ok   " if cond else "FAIL ") + name)
        if not cond:
            self.failures += 1
            if detail:
                print("     " + str(detail).replace("\n", "\n     "))

    def exit(self):
        print(f"{self.failures} check(s) failed" if self.failures else "all checks passed")
        raise SystemExit(1 if self.failures else 0)
