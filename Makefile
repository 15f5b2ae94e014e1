# `make test` and `make run` set everything up on a fresh machine (a .venv in this folder) first.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: test reproduce run bench lint docs tables preflop-tables clean browser postgres sandbox

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test]'
	touch $(STAMP)

# $(call apt_need,CHECK,PACKAGE,FOR): install Debian's PACKAGE when the shell test CHECK fails, and fail
# loudly when it still fails (CI has only what this Makefile installs). When another program holds the
# package manager's lock (an unattended upgrade, another apt-get), apt-get waits for it, up to APT_WAIT
# seconds, instead of failing at once.
APT_WAIT ?= 300
APT_POLL ?= 5
APT_GET = apt-get -o DPkg::Lock::Timeout=$(APT_WAIT)
define apt_need
	@$(1) || { \
	  echo "installing Debian's $(2) for $(3) (waiting up to $(APT_WAIT) s for the dpkg lock if another program holds it)"; \
	  SUDO=$$(test "$$(id -u)" = 0 || echo sudo); \
	  waited=0; until err=$$($$SUDO $(APT_GET) update -qq 2>&1); do \
	    case "$$err" in *"Could not get lock"*) test $$waited -lt $(APT_WAIT) && { \
	      echo "waiting for apt's package lists, locked by another program ($$waited of $(APT_WAIT) s)"; \
	      sleep $(APT_POLL); waited=$$((waited + $(APT_POLL))); continue; };; esac; \
	    echo "$$err" >&2; echo "error: could not update apt's package lists; $(3) need $(2)" >&2; exit 1; \
	  done; $$SUDO $(APT_GET) install -y -qq $(2) \
	  || { echo "error: could not install $(2) (apt-get install -y $(2)); $(3) need it" >&2; exit 1; }; }
	@$(1) || { echo "error: still missing after apt-get install $(2): $(3) need it" >&2; exit 1; }
endef

# the web table's end-to-end tests drive Debian's chromium through Playwright (never a downloaded browser
# build); its storage tests run on PostgreSQL too, a throwaway server made by Debian's initdb and pg_ctl
# (tests/web/postgres.py). CHROMIUM_REQUIRED=1 / POSTGRES_REQUIRED=1 make them fail, not skip, when missing.
CHROMIUM := /usr/bin/chromium

browser:
	$(call apt_need,test -x $(CHROMIUM),chromium,the web table's end-to-end tests)

postgres:
	$(call apt_need,{ command -v initdb >/dev/null || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; },postgresql,the web table's PostgreSQL tests)

# outside bots play in a sandbox made by Debian's bubblewrap (pokerlab.arena.sandbox; --sandbox required is
# their default, so matches with them and the sandbox tests need it)
sandbox:
	$(call apt_need,command -v bwrap >/dev/null,bubblewrap,outside bots' sandbox (--sandbox required))

test: $(STAMP) browser postgres sandbox
	CHROMIUM_REQUIRED=1 POSTGRES_REQUIRED=1 $(PY) -m pytest -q

run: $(STAMP) sandbox
	$(VENV)/bin/pokerlab demo
	rm -rf results/loki-ablation-200  # a results folder takes one run; make run starts afresh
	$(VENV)/bin/pokerlab experiment loki-ablation --deals 200 --seed 1 --workers 2 --out results/loki-ablation-200

# the tests that re-make a published figure in full (Johanson et al. 2011's Table 1 ...): minutes each, so
# `make test` and CI skip them and say so
reproduce: $(STAMP)
	$(PY) -m pytest -q --reproduce -m reproduction

bench: $(STAMP)
	for f in benchmarks/*.py; do $(PY) $$f || exit 1; done

lint: $(STAMP)
	$(VENV)/bin/ruff check src tests benchmarks examples
	$(VENV)/bin/ruff format --check src tests benchmarks examples

# the documentation site (docs/, mkdocs.yml) into site/; warnings are errors
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict --site-dir site

tables: $(STAMP)
	$(PY) -m pokerlab.evaluator_tables

# the shipped pre-flop income-rate tables, 2 to 10 players, 1,000,000 games per type (a few minutes)
preflop-tables: $(STAMP)
	for n in 2 3 4 5 6 7 8 9 10; do $(VENV)/bin/pokerlab preflop-table --players $$n --games 1000000 --write > /dev/null || exit 1; done

clean:
	rm -rf $(VENV) build dist site src/*.egg-info .pytest_cache
