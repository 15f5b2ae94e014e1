"""Barone & While (2000): the evolving player (candidates, the hypercube of (1+1)-ES populations, player A),
its epochs at the paper's tables, the experiments and plots. Import what you need from its modules
(`agent`, `config`, `hypercube` ...); this file loads none of them, so the CLI's parser stays light."""
