"""The games pbem can moderate, one sub-package each (see pbem.base.registry)."""
