"""Reinforcement-learning environments over the arena's one hand loop (docs/envs.md).

* `HoldemEnv`: a Gymnasium environment, one learning seat against pokerlab agents named as in the registry;
* `HoldemAEC`: a PettingZoo AEC environment for 2 to 10 seats, learners or pokerlab agents;
  `holdem_parallel`: the same in PettingZoo's parallel API;
* `observation` / `OBSERVATION_SIZE`: the fixed-length vector both build from a seat's view only.

Both need the optional extra ``pip install 'pokerlab[envs]'`` (Gymnasium, PettingZoo).
"""

from __future__ import annotations

try:
    import gymnasium  # noqa: F401
except ImportError:  # pragma: no cover - the extra is installed for the tests
    raise ImportError("pokerlab.envs needs Gymnasium: pip install 'pokerlab[envs]'") from None

from pokerlab.envs.encoding import OBSERVATION_SIZE, action_mask, observation
from pokerlab.envs.holdem import HoldemEnv

__all__ = ["OBSERVATION_SIZE", "HoldemAEC", "HoldemEnv", "action_mask", "holdem_parallel", "observation"]


def __getattr__(name: str):
    if name in ("HoldemAEC", "holdem_parallel"):  # PettingZoo is imported only when asked for
        from pokerlab.envs import aec

        return getattr(aec, name)
    raise AttributeError(f"module 'pokerlab.envs' has no attribute {name!r}")
