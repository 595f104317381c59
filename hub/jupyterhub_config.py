"""JupyterHub for a class working through the dpteach workbook: one server (The Littlest JupyterHub's way).

Two modes, chosen by the environment variable ``DPTEACH_HUB``:

``server`` (the default): a real hub on one machine, as The Littlest JupyterHub runs one. Every
student is a Unix user of their own (``LocalProcessSpawner``; TLJH's ``SystemdSpawner`` also enforces the
memory and CPU limits below), logged in by the machine's accounts (PAM) or, with
``DPTEACH_LTI=1``, from a link in Canvas or Moodle (LTI 1.3, ``jupyterhub-ltiauthenticator``: set
``DPTEACH_LTI_CLIENT_ID``, ``DPTEACH_LTI_ISSUER``, ``DPTEACH_LTI_AUTHORIZE_URL`` and
``DPTEACH_LTI_JWKS_URL`` from the LMS's developer key). A student lands in chapter 00 of their own
copy of the workbook, cloned (then kept up to date, their edits kept) by nbgitpuller from
``DPTEACH_REPO`` (``owner/name`` or a clone URL; ``DPTEACH_BRANCH``, default ``main``). Idle servers are
stopped after ``DPTEACH_CULL_SECONDS`` (default 3,600) by jupyterhub-idle-culler. The students' Python
is the workbook's environment: install it from this repository's lock (``pip install -r
requirements/lab.lock.txt`` and the dpteach wheel, or the hand-out's ``requirements.txt``) where the
hub's user environment lives (TLJH: ``/opt/tljh/user``), plus ``nbgitpuller``. Inside TLJH, copy this
file into ``/opt/tljh/config/jupyterhub_config.d/`` and run ``sudo tljh-config reload``.

``demo`` (``make hub``, and the tests and ``make bench-hub``): a local hub on 127.0.0.1 with
``DPTEACH_HUB_USERS`` demo accounts (``student01``…, and ``instructor``, password
``DPTEACH_HUB_PASSWORD``). **A demo only**: every account is the same Unix user
(``SimpleLocalProcessSpawner``), so students could read each other's files. Each account's home is a
folder under ``DPTEACH_HUB_STATE`` holding a copy of the chapters (what nbgitpuller would clone).

The sizes (memory and CPU per student) are those of the instructor's guide (docs/instructor/hubs.md and
sizing.md), measured by ``make bench-hub``.
"""

import os
import shutil
import sys
from pathlib import Path

c = get_config()  # noqa: F821 (JupyterHub's config loader defines it)

ROOT = Path(__file__).resolve().parents[1]           # this repository
MODE = os.environ.get("DPTEACH_HUB", "server")
START = "notebooks/00_start_here.ipynb"
#: Per student, from the sizing (docs/instructor/sizing.md): a chapter's kernel and its server.
MEMORY_LIMIT, MEMORY_GUARANTEE = "1G", "300M"
CPU_LIMIT, CPU_GUARANTEE = 1.0, 0.1
CULL_SECONDS = int(os.environ.get("DPTEACH_CULL_SECONDS", "3600"))

# Every server stopped after an hour without activity, whatever the mode.
c.JupyterHub.load_roles = [{"name": "idle-culler", "services": ["idle-culler"],
                            "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers"]}]
c.JupyterHub.services = [{"name": "idle-culler",
                          "command": [sys.executable, "-m", "jupyterhub_idle_culler", f"--timeout={CULL_SECONDS}"]}]
#: glibc returns freed memory to the system sooner: a chapter's kernel after Run All holds up to ~25 MB less
#: (chapter 08: 163 → 139 MB, measured with `make bench-hub`'s kernel-memory table).
LEAN_MALLOC = {"MALLOC_ARENA_MAX": "1", "MALLOC_TRIM_THRESHOLD_": "131072"}
c.Spawner.environment = dict(LEAN_MALLOC)
c.Spawner.mem_limit, c.Spawner.mem_guarantee = MEMORY_LIMIT, MEMORY_GUARANTEE
c.Spawner.cpu_limit, c.Spawner.cpu_guarantee = CPU_LIMIT, CPU_GUARANTEE

if MODE == "demo":
    STATE = Path(os.environ.get("DPTEACH_HUB_STATE", ROOT / "build" / "hub" / "state")).resolve()
    STATE.mkdir(parents=True, exist_ok=True)
    users = int(os.environ.get("DPTEACH_HUB_USERS", "5"))
    c.JupyterHub.ip = "127.0.0.1"
    c.JupyterHub.port = int(os.environ.get("DPTEACH_HUB_PORT", "8000"))
    c.JupyterHub.hub_ip = "127.0.0.1"
    c.JupyterHub.hub_port = int(os.environ.get("DPTEACH_HUB_API_PORT", str(c.JupyterHub.port + 81)))
    c.ConfigurableHTTPProxy.api_url = ("http://127.0.0.1:"
                                       + os.environ.get("DPTEACH_HUB_PROXY_API_PORT", str(c.JupyterHub.port + 1)))
    c.ConfigurableHTTPProxy.command = [str(ROOT / "build" / "hub" / "node_modules" / ".bin" / "configurable-http-proxy")]
    c.ConfigurableHTTPProxy.pid_file = str(STATE / "proxy.pid")
    c.JupyterHub.db_url = f"sqlite:///{STATE / 'jupyterhub.sqlite'}"
    c.JupyterHub.cookie_secret_file = str(STATE / "cookie_secret")
    c.JupyterHub.pid_file = str(STATE / "jupyterhub.pid")
    c.JupyterHub.authenticator_class = "dummy"
    c.DummyAuthenticator.password = os.environ.get("DPTEACH_HUB_PASSWORD", "dpteach")
    c.Authenticator.allowed_users = {f"student{i:02d}" for i in range(1, users + 1)} | {"instructor"}
    c.Authenticator.admin_users = {"instructor"}
    c.JupyterHub.spawner_class = "simple"
    c.SimpleLocalProcessSpawner.home_dir_template = str(STATE / "home" / "{username}")
    c.Spawner.cmd = [str(Path(sys.executable).parent / "jupyterhub-singleuser")]
    c.Spawner.default_url = f"/lab/tree/{START}"
    # Kernels over local sockets, not TCP: no race for ports when a class starts its kernels at once (seen:
    # "Address already in use" with twenty), and nothing of their traffic on the network. A socket's path must
    # be short (107 bytes): each account's runtime folder is a short one under /tmp.
    c.Spawner.args = ["--KernelManager.transport=ipc"]
    if os.geteuid() == 0:        # (a container or CI machine: the single-user server refuses root unless told)
        c.Spawner.args = [*c.Spawner.args, "--allow-root"]
    # (DPTEACH_HUB_STATE marks every process of this hub, so that the tests find any left behind)
    c.Spawner.environment = {**LEAN_MALLOC, "MPLCONFIGDIR": str(ROOT / ".venv" / "matplotlib"),
                             "DPTEACH_HUB_STATE": str(STATE)}
    c.Spawner.environment["JUPYTER_RUNTIME_DIR"] = \
        lambda spawner: f"/tmp/dpteach-hub-{c.JupyterHub.port}/{spawner.user.name}"      # (see the transport above)
    c.JupyterHub.services[0]["environment"] = {"DPTEACH_HUB_STATE": str(STATE)}
    c.Spawner.start_timeout = 120
    c.Spawner.http_timeout = 120

    def copy_the_chapters(spawner):
        """The chapters in the account's home, as nbgitpuller would clone them (kept if already there)."""
        home = Path(spawner.home_dir_template.format(username=spawner.user.name))
        if not (home / "notebooks").exists():
            home.mkdir(parents=True, exist_ok=True)
            shutil.copytree(ROOT / "notebooks", home / "notebooks", ignore=_not_chapters)

    def _not_chapters(folder, names):
        """What a student's copy leaves out: caches, checkpoints, and anything not a file or a folder (a kernel's
        socket left in notebooks/ would stop the copy, and every student's server with it)."""
        return {name for name in names if name in (".ipynb_checkpoints", "__pycache__")
                or not (os.path.isfile(os.path.join(folder, name)) or os.path.isdir(os.path.join(folder, name)))}

    c.Spawner.pre_spawn_hook = copy_the_chapters
    token = os.environ.get("DPTEACH_HUB_TOKEN")
    if token:          # the load benchmark's and the tests' client: starts servers, opens kernels
        c.JupyterHub.services.append({"name": "dpteach-load", "api_token": token})
        c.JupyterHub.load_roles.append({"name": "dpteach-load", "services": ["dpteach-load"],
                                        "scopes": ["admin:users", "admin:servers", "access:servers"]})
else:
    sys.path.insert(0, str(ROOT / "dpteach" / "publish"))
    from links import nbgitpuller_url

    c.JupyterHub.spawner_class = "jupyterhub.spawner.LocalProcessSpawner"
    c.LocalAuthenticator.create_system_users = True
    repo = os.environ.get("DPTEACH_REPO", "")
    if repo:            # the relative part of the nbgitpuller link: the hub is this one
        link = nbgitpuller_url("https://hub.invalid", repo, os.environ.get("DPTEACH_BRANCH", "main"))
        c.Spawner.default_url = link.removeprefix("https://hub.invalid/hub/user-redirect")
    if os.environ.get("DPTEACH_LTI") == "1":
        c.JupyterHub.authenticator_class = "ltiauthenticator.lti13.auth.LTI13Authenticator"
        c.LTI13Authenticator.client_id = {os.environ["DPTEACH_LTI_CLIENT_ID"]}
        c.LTI13Authenticator.issuer = os.environ["DPTEACH_LTI_ISSUER"]
        c.LTI13Authenticator.authorize_url = os.environ["DPTEACH_LTI_AUTHORIZE_URL"]
        c.LTI13Authenticator.jwks_endpoint = os.environ["DPTEACH_LTI_JWKS_URL"]
        c.LTI13Authenticator.username_key = "email"
        c.Authenticator.allow_all = True          # whoever the LMS sends: the course's own students
    else:
        c.JupyterHub.authenticator_class = "pam"
