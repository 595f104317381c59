"""The hub's configuration files parse, in every mode, and say what docs/instructor/hubs.md says they say (fast tier)."""

from __future__ import annotations

import re

import yaml
from helpers import ROOT
from traitlets.config.loader import PyFileConfigLoader

HUB = ROOT / "hub"


def _load(monkeypatch, **env):
    for name in ("DPTEACH_HUB", "DPTEACH_REPO", "DPTEACH_LTI", "DPTEACH_HUB_USERS", "DPTEACH_HUB_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return PyFileConfigLoader("jupyterhub_config.py", path=str(HUB)).load_config()


def test_the_demo_hub_has_its_accounts_one_unix_user_and_a_load_client(monkeypatch, tmp_path):
    config = _load(monkeypatch, DPTEACH_HUB="demo", DPTEACH_HUB_USERS="3", DPTEACH_HUB_TOKEN="abc",
                   DPTEACH_HUB_STATE=str(tmp_path))
    assert config.JupyterHub.authenticator_class == "dummy" and config.JupyterHub.spawner_class == "simple"
    assert config.Authenticator.allowed_users == {"student01", "student02", "student03", "instructor"}
    assert config.JupyterHub.ip == "127.0.0.1"
    assert config.Spawner.default_url == "/lab/tree/notebooks/00_start_here.ipynb"
    assert [s["name"] for s in config.JupyterHub.services] == ["idle-culler", "dpteach-load"]
    assert config.Spawner.environment["DPTEACH_HUB_STATE"] == str(tmp_path.resolve())
    assert config.Spawner.environment["MALLOC_ARENA_MAX"] == "1"
    assert "--KernelManager.transport=ipc" in config.Spawner.args


def test_the_server_hub_is_the_littlest_jupyterhubs_way(monkeypatch):
    config = _load(monkeypatch, DPTEACH_REPO="owner/name", DPTEACH_CULL_SECONDS="1800")
    assert config.JupyterHub.spawner_class == "jupyterhub.spawner.LocalProcessSpawner"
    assert config.LocalAuthenticator.create_system_users is True and config.JupyterHub.authenticator_class == "pam"
    assert config.Spawner.default_url.startswith("/git-pull?repo=https%3A%2F%2Fgithub.com%2Fowner%2Fname")
    assert "urlpath=lab%2Ftree%2Fname%2Fnotebooks%2F00_start_here.ipynb" in config.Spawner.default_url
    culler = config.JupyterHub.services[0]
    assert culler["name"] == "idle-culler" and "--timeout=1800" in culler["command"]
    assert {"list:users", "read:users:activity", "read:servers", "delete:servers"} <= set(
        config.JupyterHub.load_roles[0]["scopes"])


def test_students_can_log_in_from_their_lms_with_lti_13(monkeypatch):
    config = _load(monkeypatch, DPTEACH_LTI="1", DPTEACH_LTI_CLIENT_ID="10000000000001",
                   DPTEACH_LTI_ISSUER="https://canvas.instructure.com",
                   DPTEACH_LTI_AUTHORIZE_URL="https://canvas.example.edu/api/lti/authorize_redirect",
                   DPTEACH_LTI_JWKS_URL="https://canvas.example.edu/api/lti/security/jwks")
    assert config.JupyterHub.authenticator_class == "ltiauthenticator.lti13.auth.LTI13Authenticator"
    assert config.LTI13Authenticator.client_id == {"10000000000001"}
    from ltiauthenticator.lti13.auth import LTI13Authenticator
    authenticator = LTI13Authenticator(config=config)
    assert authenticator.issuer == "https://canvas.instructure.com" and authenticator.username_key == "email"


def _guide_hub_section() -> str:
    """The instructor's guide's section on running a class on a hub (it was the README's)."""
    text = (ROOT / "docs" / "instructor" / "hubs.md").read_text()
    start = text.index("## Running a class on a hub")
    end = text.find("\n## ", start + 1)
    return text[start:] if end < 0 else text[start:end]


def test_the_kubernetes_config_parses_and_says_what_the_guide_says():
    values = yaml.safe_load((HUB / "config.yaml").read_text())
    user = values["singleuser"]
    section = _guide_hub_section()
    assert user["lifecycleHooks"]["postStart"]["exec"]["command"][0] == "gitpuller"
    assert user["defaultUrl"].endswith("notebooks/00_start_here.ipynb")
    assert values["cull"] == {"enabled": True, "timeout": 3600, "every": 300}
    assert [p["display_name"] for p in user["profileList"]] == ["Student", "Instructor"]
    assert values["hub"]["config"]["JupyterHub"]["authenticator_class"].endswith("LTI13Authenticator")
    for name, value in (("memory guarantee", user["memory"]["guarantee"]), ("memory limit", user["memory"]["limit"]),
                        ("CPU guarantee", str(user["cpu"]["guarantee"])), ("CPU limit", str(user["cpu"]["limit"]))):
        words = r"\s+".join(map(re.escape, name.split()))
        assert re.search(rf"{words}\s+(of\s+)?\**{re.escape(value)}\**", section), (name, value)


def test_both_configs_give_a_student_the_same_share():
    text = (HUB / "jupyterhub_config.py").read_text()
    memory = re.search(r'MEMORY_LIMIT, MEMORY_GUARANTEE = "(\w+)", "(\w+)"', text).groups()
    cpu = re.search(r"CPU_LIMIT, CPU_GUARANTEE = ([\d.]+), ([\d.]+)", text).groups()
    values = yaml.safe_load((HUB / "config.yaml").read_text())["singleuser"]
    assert memory == (values["memory"]["limit"], values["memory"]["guarantee"])
    assert tuple(map(float, cpu)) == (values["cpu"]["limit"], values["cpu"]["guarantee"])


def test_a_student_s_copy_of_the_chapters_skips_a_kernel_s_socket_left_in_notebooks(monkeypatch, tmp_path):
    """A kernel started in notebooks/ with a relative IPC address leaves its sockets there; copying one failed
    ("No such device or address") and with it every student's server. The copy takes files and folders only."""
    import socket
    from types import SimpleNamespace
    config = _load(monkeypatch, DPTEACH_HUB="demo", DPTEACH_HUB_USERS="1", DPTEACH_HUB_STATE=str(tmp_path / "state"))
    hook = config.Spawner.pre_spawn_hook
    root = tmp_path / "workbook"
    (root / "notebooks" / "data").mkdir(parents=True)
    (root / "notebooks" / "00_start_here.ipynb").write_text("{}")
    (root / "notebooks" / "data" / "names.csv").write_text("name\n")
    (root / "notebooks" / ".ipynb_checkpoints").mkdir()
    left = socket.socket(socket.AF_UNIX)
    left.bind(str(root / "notebooks" / "kernel-ipc-1"))
    try:
        monkeypatch.setitem(hook.__globals__, "ROOT", root)
        home = tmp_path / "home" / "student01"
        hook(SimpleNamespace(home_dir_template=str(tmp_path / "home" / "{username}"),
                             user=SimpleNamespace(name="student01")))
    finally:
        left.close()
    copied = sorted(str(p.relative_to(home)) for p in home.rglob("*"))
    assert copied == ["notebooks", "notebooks/00_start_here.ipynb", "notebooks/data", "notebooks/data/names.csv"]
