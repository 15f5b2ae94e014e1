"""The research programs, a folder each: its players, their configuration, training, experiments and
studies. A player's own modules stand on the agents' floor (they never import the arena or the interfaces);
its training, experiments and studies may use the arena. Programs import each other only along their
lineage: Loki-2 (Billings et al. 1999) builds on Loki-1 (Billings et al. 1998)."""
