# The course's commands. Each target first makes sure .venv matches the pins (fast when it does).
# Windows without make: see docs/learner.md, "Without make".

PYTHON ?= python3
VENV_PY := .venv/bin/python
# The course's two commands, beside that Python (.venv/bin/workbook and .venv/bin/tooldesign, as the
# guides spell them; setup makes sure both exist).
# (A VENV_PY given as a bare command, python3, falls back to its -m spelling.)
WORKBOOK = $(if $(filter ./,$(dir $(VENV_PY))),$(VENV_PY) -m workbook,$(dir $(VENV_PY))workbook)
TOOLDESIGN = $(if $(filter ./,$(dir $(VENV_PY))),$(VENV_PY) -m tooldesign,$(dir $(VENV_PY))tooldesign)
# The tests keep their compiled files (in the git-ignored __pycache__/ folders, never copied into a
# student edition or a grading kernel): pytest rewrites the asserts of about 270 test modules, about six
# seconds in each worker, and without it (PYTHONDONTWRITEBYTECODE set) would do so on every run.
KEEP_BYTECODE := PYTHONDONTWRITEBYTECODE=
PYTEST_NB := --nbval --nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg
NB ?=
WHEELS ?=
# $(call q,VALUE): VALUE as one shell word, so a path with spaces, brackets or quotes reaches the command whole.
q = '$(subst ','\'',$(1))'

.PHONY: site setup lab test test-quick notebooks solutions check grade handout data doctor bench bench-suite quiz-figures clean test-browser browser-packages test-widgets test-site test-lab wheelhouse currency

# WHEELS=folder-or-address: set up from an instructor's wheelhouse only, no package index (see docs/lab-day.md).
setup:
	@$(PYTHON) scripts/setup_env.py $(if $(WHEELS),--wheels $(call q,$(WHEELS)))

# Jupyter refuses to run as root unless told; containers and some lab machines run as root.
ALLOW_ROOT := $(if $(filter 0,$(shell id -u 2>/dev/null)),--allow-root)

# The server talks to each kernel over TCP on 127.0.0.1, and ipykernel warns at every kernel start that
# this traffic is not encrypted. The kernel spec declares CurveZMQ support, so the lab asks for it
# (transport_encryption=auto): the traffic is encrypted and the terminal keeps to what needs attention.
# A pyzmq built without CurveZMQ cannot encrypt; the lab then starts as before (with the warning).
LAB_ENCRYPTION = $$($(VENV_PY) -c "import zmq; print('--KernelManager.transport_encryption=auto' if zmq.has('curve') else '')")

lab: setup  ## set up, then open JupyterLab at the first notebook
	$(VENV_PY) -m jupyter lab $(ALLOW_ROOT) $(LAB_ENCRYPTION) --ServerApp.root_dir=. notebooks/00_start_here.ipynb

test: setup  ## set up, then run every test: package, checks both ways, notebooks under nbval
	@echo "(The widgets in a real browser are tested by make test-browser; it needs Chromium: apt-get install chromium)"
	$(KEEP_BYTECODE) $(VENV_PY) -m pytest -n 2 --dist loadfile $(PYTEST_NB) tests solutions

test-quick: setup  ## the fast tier alone (no kernels, grading runs or course commands): under a minute
	$(KEEP_BYTECODE) $(VENV_PY) -m pytest -n 2 -m "not slow" tests

test-lab: setup  ## instructors: build a wheelhouse for this machine and set a fresh copy of the course up from it alone (downloads every pinned wheel)
	COURSE_LAB_TESTS=1 $(VENV_PY) -m pytest -p no:cacheprovider -p no:xdist tests/test_wheelhouse.py -v -rs

test-browser: test-widgets test-site  ## the widgets of every learner notebook, then the course website, in headless Chromium (needs Debian's chromium)

browser-packages: setup  ## Playwright and the website's packages, installed once (make test-widgets and make test-site ask for them)
	@$(VENV_PY) -c "import playwright" 2>/dev/null || $(VENV_PY) -m pip install --quiet --disable-pip-version-check -r requirements-browser.txt
	@$(VENV_PY) -c "import myst_nb, sphinx_book_theme" 2>/dev/null || $(VENV_PY) -m pip install --quiet --disable-pip-version-check -r requirements-site.txt

test-widgets: browser-packages  ## every learner notebook in JupyterLab in headless Chromium: errors, widgets, quizzes, explorers
	# Two workers, each with its own JupyterLab and Chromium; a notebook's tests stay on one (tests/browser/conftest.py).
	COURSE_BROWSER_TESTS=1 $(VENV_PY) -m pytest -p no:cacheprovider -n 2 --dist loadgroup tests/browser --ignore=tests/browser/test_site.py -v

test-site: browser-packages  ## the course website built offline and opened page by page in headless Chromium
	# The website's test drives its own Playwright: a second one cannot start inside another's session.
	COURSE_SITE_TESTS=1 $(VENV_PY) -m pytest -p no:cacheprovider -p no:xdist tests/browser/test_site.py -v

site: setup  ## the course as a static website in build/site/ (every lesson with its stored outputs; nothing runs, nothing is fetched)
	@$(VENV_PY) -c "import myst_nb, sphinx_book_theme" 2>/dev/null || $(VENV_PY) -m pip install --quiet --disable-pip-version-check -r requirements-site.txt
	$(VENV_PY) site/build.py --out build/site

wheelhouse: setup  ## instructors: every pinned package for every platform into wheelhouse/ [PLATFORMS="linux_x86_64 ..."] [PYTHONS="3.12 ..."] [OUT=folder]
	$(VENV_PY) scripts/wheelhouse.py --out $(call q,$(or $(OUT),wheelhouse)) $(if $(PLATFORMS),--platforms "$(PLATFORMS)") $(if $(PYTHONS),--pythons "$(PYTHONS)")

notebooks: setup  ## write the learner copies in notebooks/ from solutions/ (FORCE=1 to replace changed copies)
	$(WORKBOOK) release $(if $(FORCE),--force)

solutions: setup  ## authors: re-run the solution notebooks and store their outputs (NB=02 for one)
	$(WORKBOOK) execute $(if $(NB),$(call q,$(NB)))

check: setup  ## run the checks of your notebook: make check NB=02
	@if [ -z $(call q,$(NB)) ]; then echo "say which notebook: make check NB=02"; exit 2; fi
	@$(WORKBOOK) check $(call q,$(NB))

grade: setup  ## instructors: make grade SUBMISSIONS=folder [OUT=grading-out] [JOBS=1] [TIMEOUT=120] [HIDDEN_CHECKS=private_checks.py] [ROSTER=roster.csv] [HAND_GRADES=hand.csv] [EXPORT="canvas lesson-csv"]
	@if [ -z $(call q,$(SUBMISSIONS)) ]; then echo "say where the submissions are: make grade SUBMISSIONS=folder"; exit 2; fi
	$(WORKBOOK) grade $(call q,$(SUBMISSIONS)) --out $(call q,$(or $(OUT),grading-out)) $(if $(JOBS),--jobs $(JOBS)) $(if $(TIMEOUT),--timeout $(TIMEOUT)) $(if $(HIDDEN_CHECKS),--hidden-checks $(call q,$(HIDDEN_CHECKS))) $(if $(NO_SANDBOX),--no-sandbox) $(if $(ROSTER),--roster $(call q,$(ROSTER))) $(if $(HAND_GRADES),--hand-grades $(call q,$(HAND_GRADES))) $(foreach target,$(EXPORT),--export $(call q,$(target)))

handout: setup  ## instructors: write the student edition for a graded class: make handout [OUT=student-edition]
	$(WORKBOOK) handout $(call q,$(or $(OUT),student-edition))

data: setup  ## rebuild data/ (byte-identical to what is committed)
	$(TOOLDESIGN) data

doctor: setup
	$(WORKBOOK) doctor

bench: setup  ## print the benchmark figures (seconds per notebook, and each lesson's own)
	@for script in benchmarks/bench_*.py; do echo "== $$script"; $(VENV_PY) $$script || exit 1; done

quiz-figures: setup  ## how far the quizzes can be answered without reading (right answer longest, shortest, its place)
	$(VENV_PY) scripts/quiz_figures.py

bench-suite: setup  ## how long make test takes beside its floor (every solution notebook once), by area
	$(VENV_PY) benchmarks/suite_against_floor.py

# Plain Python, no setup needed: it reads docs/currency.csv alone.
currency:  ## instructors, before each run of the course: the claims read over six months ago, oldest first [ALL=1] [TODAY=YYYY-MM-DD]
	@$(PYTHON) scripts/currency.py $(if $(ALL),--all) $(if $(TODAY),--today $(call q,$(TODAY)))

clean:
	rm -rf .venv build src/*.egg-info
