"""Train RLlib's PPO on the PettingZoo table: one learning seat against a pokerlab stereotype, on Ray.

`pokerlab.envs.HoldemAEC` with seat 1 given to a pokerlab agent (``--opponent``) leaves one PettingZoo
agent, "seat_0", which RLlib's `PettingZooEnv` wrapper turns into a multi-agent environment of one agent
(one hand an episode, the reward the hand's net in small bets). Its policy is RLlib's action-masking PPO
module (`ActionMaskingTorchRLModule`, from RLlib's own examples: the illegal actions' logits set to the
lowest float), so the observation is renamed to the keys that module reads ("observations" and
"action_mask") by `Renamed`, a PettingZoo wrapper of a dozen lines. PPO is Schulman et al. 2017
(the clipped surrogate objective), on RLlib's current API stack (RLModule, Learner, EnvRunner).

Not a dependency of pokerlab nor of its tests; it ran in a virtual environment of its own with
ray[rllib] 2.60.0, torch 2.13.0+cpu, gymnasium 1.2.2, pettingzoo 1.27.0, numpy 2.4.6 and pokerlab
(``pip install 'ray[rllib]' torch`` and ``pip install -e '.[envs]'``), Python 3.11, on a local Ray of two
CPUs:

    python examples/rllib_ppo.py --opponent loose-passive --iterations 15 --batch 4000 --seed 1

It prints, per training iteration, the environment steps sampled so far, the hands that iteration
played and their mean return (the learning seat's small bets per hand); docs/envs.md shows that run
(12 minutes on a busy 2-core machine). RLlib and each of the ``--tables`` copies of the table are
seeded from ``--seed`` (`table`): three runs with seed 1 printed the same first three lines.
"""

from __future__ import annotations

import argparse

from gymnasium import spaces
from pettingzoo.utils.wrappers import BaseWrapper

from pokerlab.envs import HoldemAEC


class Renamed(BaseWrapper):
    """`HoldemAEC` observed under the keys RLlib's action-masking module reads: {"observations": the
    vector, "action_mask": FOLD, CALL, RAISE}."""

    def __init__(self, env: HoldemAEC) -> None:
        super().__init__(env)
        inner = env.observation_space(env.possible_agents[0])  # every seat's: one space
        self._space = spaces.Dict({"observations": inner["observation"], "action_mask": inner["action_mask"]})

    def observation_space(self, agent: str) -> spaces.Space:
        return self._space

    def observe(self, agent: str) -> dict:
        seen = self.env.observe(agent)
        return {"observations": seen["observation"], "action_mask": seen["action_mask"]}


def table(env_config: dict):
    """RLlib's environment: the heads-up table, seat 1 played by the named pokerlab agent."""
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv

    # each of RLlib's copies of the table deals its own cards: seeded from the run's seed and its place
    place = 1000 * getattr(env_config, "worker_index", 0) + getattr(env_config, "vector_index", 0)
    aec = HoldemAEC(2, seed=env_config["seed"] * 1_000_000 + place, opponents={1: env_config["opponent"]})
    return PettingZooEnv(Renamed(aec))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opponent", default="loose-passive", help="a pokerlab agent's registry name")
    parser.add_argument("--iterations", type=int, default=10, help="PPO training iterations")
    parser.add_argument("--batch", type=int, default=4000, help="environment steps per iteration")
    parser.add_argument("--tables", type=int, default=8, help="tables the env runner plays side by side")
    parser.add_argument("--seed", type=int, default=1, help="seeds RLlib and the tables' deals")
    parser.add_argument("--address", default=None, help="a Ray cluster (default: a Ray started here)")
    args = parser.parse_args()

    import ray
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule
    from ray.tune.registry import register_env

    ray.init(address=args.address or "local", log_to_driver=False)  # "local": never a stale recorded cluster
    register_env("pokerlab_holdem", table)
    module = RLModuleSpec(module_class=ActionMaskingTorchRLModule, model_config={"fcnet_hiddens": [64, 64]})
    config = (
        PPOConfig()
        .environment("pokerlab_holdem", env_config={"seed": args.seed, "opponent": args.opponent})
        .multi_agent(policies={"learner"}, policy_mapping_fn=lambda agent_id, episode, **kw: "learner")
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={"learner": module}))
        .env_runners(num_env_runners=1, num_envs_per_env_runner=args.tables, sample_timeout_s=600)
        .training(train_batch_size_per_learner=args.batch, minibatch_size=256, num_epochs=5, lr=3e-4)
        .debugging(seed=args.seed)
    )
    algo = config.build_algo()
    try:
        for iteration in range(1, args.iterations + 1):
            result = algo.train()
            runners = result["env_runners"]
            print(
                f"iteration {iteration:2d}: {int(runners['num_env_steps_sampled_lifetime']):7d} steps, "
                f"{int(runners['num_episodes']):5d} hands, "
                f"episode return mean {runners['episode_return_mean']:+.3f} sb/hand",
                flush=True,
            )
    finally:
        algo.stop()
        ray.shutdown()


if __name__ == "__main__":
    main()
