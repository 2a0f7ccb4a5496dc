"""Training the policy of :mod:`take5rules.agents.policy`: data, imitation, export.

Not part of the package: run from a clone of the repository (``python -m training``).

The arithmetic runs on one thread of the linear-algebra library. A matrix product split over
several threads adds its terms in another order, and over thousands of steps the rounding
differences grow into other weights: the same seed then gives the same network only on a
machine with the same thread count. On one thread it gives the same network anywhere the
library computes the same way (and on a machine of 2 shared cores the training was faster so,
not slower). The limit is set here, before numpy is imported, for ``python -m training``;
numpy imported earlier keeps its threads.
"""

import os

for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_name] = "1"
