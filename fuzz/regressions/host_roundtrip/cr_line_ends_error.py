import pypto.language as pl@pl.programclass A:    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self):        x = 