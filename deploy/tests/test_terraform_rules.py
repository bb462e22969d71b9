"""The Terraform configuration, parsed with python-hcl2, keeps the cluster's security and shape rules.

- SSH is reachable only from var.admin_cidr, which has no default.
- Broker and worker ports are reachable only from var.vpc_cidr; nothing is open to 0.0.0.0/0.
- By default: 3 x i3.large brokers and c5.2xlarge clients in one cluster placement group.
- The outputs and the inventory template provide what the playbooks use (groups brokers, clients).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import hcl2
import pytest
import yaml
from hcl2 import SerializationOptions

from conftest import ANSIBLE_DIR, PLAYBOOKS, TERRAFORM_DIR

OPTIONS = SerializationOptions(with_comments=False, explicit_blocks=False, strip_string_quotes=True)

EXPECTED_VPC_PORTS = {
    9092: "Kafka API (Apache Kafka and Redpanda)",
    9093: "Kafka KRaft controller",
    33145: "Redpanda RPC",
    9644: "Redpanda admin",
    8080: "omb-tx worker HTTP",
    8081: "omb-tx worker stats",
}


def unquote(value: Any) -> Any:
    """Strips the quotes python-hcl2 keeps around block labels."""
    return value[1:-1] if isinstance(value, str) and len(value) >= 2 and value[0] == value[-1] == '"' else value


def load(path: Path) -> dict[str, Any]:
    with path.open() as handle:
        return hcl2.load(handle, serialization_options=OPTIONS)


def blocks(documents: list[dict[str, Any]], kind: str) -> dict[str, Any]:
    """Label -> body for single-label blocks (variable, output, module)."""
    found: dict[str, Any] = {}
    for document in documents:
        for entry in document.get(kind, []):
            for label, body in entry.items():
                found[unquote(label)] = body
    return found


def resources(documents: list[dict[str, Any]], kind: str = "resource") -> dict[tuple[str, str], Any]:
    """(type, name) -> body for resource or data blocks."""
    found: dict[tuple[str, str], Any] = {}
    for document in documents:
        for entry in document.get(kind, []):
            for type_label, named in entry.items():
                for name, body in named.items():
                    found[(unquote(type_label), unquote(name))] = body
    return found


def merged_locals(documents: list[dict[str, Any]]) -> dict[str, Any]:
    merged: dict[str, Any] = {}
    for document in documents:
        for entry in document.get("locals", []):
            merged.update(entry)
    return merged


@pytest.fixture(scope="module")
def root_documents() -> list[dict[str, Any]]:
    return [load(path) for path in sorted(TERRAFORM_DIR.glob("*.tf"))]


@pytest.fixture(scope="module")
def all_documents(root_documents: list[dict[str, Any]]) -> list[dict[str, Any]]:
    modules = [load(path) for path in sorted((TERRAFORM_DIR / "modules").rglob("*.tf"))]
    return root_documents + modules


@pytest.fixture(scope="module")
def variables(root_documents: list[dict[str, Any]]) -> dict[str, Any]:
    return blocks(root_documents, "variable")


@pytest.fixture(scope="module")
def resource_map(root_documents: list[dict[str, Any]]) -> dict[tuple[str, str], Any]:
    return resources(root_documents)


@pytest.fixture(scope="module")
def ingress_rules(resource_map: dict[tuple[str, str], Any]) -> dict[str, Any]:
    return {name: body for (kind, name), body in resource_map.items() if kind == "aws_vpc_security_group_ingress_rule"}


def test_every_terraform_file_parses(all_documents: list[dict[str, Any]]) -> None:
    assert len(all_documents) >= 6


def test_every_variable_has_a_description_and_a_type(all_documents: list[dict[str, Any]]) -> None:
    for name, body in blocks(all_documents, "variable").items():
        assert body.get("description"), f"variable {name} has no description"
        assert body.get("type"), f"variable {name} has no type"


def test_admin_cidr_has_no_default_and_is_validated(variables: dict[str, Any]) -> None:
    admin_cidr = variables["admin_cidr"]
    assert "default" not in admin_cidr
    conditions = [rule["condition"] for rule in admin_cidr["validation"]]
    assert any("cidrnetmask(var.admin_cidr)" in condition for condition in conditions)


def test_ssh_is_open_only_to_the_admin_cidr(ingress_rules: dict[str, Any]) -> None:
    ssh_rules = {name: body for name, body in ingress_rules.items() if body.get("from_port") == 22}
    assert list(ssh_rules) == ["ssh_from_admin"]
    rule = ssh_rules["ssh_from_admin"]
    assert rule["cidr_ipv4"] == "${var.admin_cidr}"
    assert (rule["from_port"], rule["to_port"], rule["ip_protocol"]) == (22, 22, "tcp")


def test_broker_and_worker_ports_are_open_only_inside_the_vpc(
    root_documents: list[dict[str, Any]], ingress_rules: dict[str, Any]
) -> None:
    intra_vpc = ingress_rules["intra_vpc"]
    assert intra_vpc["for_each"] == "${local.intra_vpc_ports}"
    assert intra_vpc["cidr_ipv4"] == "${var.vpc_cidr}"
    assert intra_vpc["from_port"] == intra_vpc["to_port"] == "${each.value.port}"
    ports = {entry["port"] for entry in merged_locals(root_documents)["intra_vpc_ports"].values()}
    assert ports == set(EXPECTED_VPC_PORTS)


def test_there_are_no_other_ingress_rules(ingress_rules: dict[str, Any], resource_map: dict[tuple[str, str], Any]) -> None:
    assert set(ingress_rules) == {"ssh_from_admin", "intra_vpc"}
    assert not [key for key in resource_map if key[0] == "aws_security_group_rule"]
    for (kind, name), body in resource_map.items():
        if kind == "aws_security_group":
            assert "ingress" not in body, f"aws_security_group.{name} declares inline ingress"


def test_nothing_is_reachable_from_the_whole_internet(all_documents: list[dict[str, Any]]) -> None:
    for (kind, name), body in resources(all_documents).items():
        if kind in {"aws_vpc_security_group_ingress_rule", "aws_security_group_rule"}:
            text = repr(body)
            assert "0.0.0.0/0" not in text and "::/0" not in text, f"{kind}.{name} is open to the internet"
        if kind == "aws_security_group":
            assert "0.0.0.0/0" not in repr(body.get("ingress", "")), f"{kind}.{name} has open ingress"


def test_default_topology_is_three_i3_large_brokers_and_c5_clients(variables: dict[str, Any]) -> None:
    assert variables["broker_count"]["default"] == 3
    assert variables["broker_instance_type"]["default"] == "i3.large"
    assert variables["client_count"]["default"] >= 1
    assert variables["client_instance_type"]["default"] == "c5.2xlarge"
    assert variables["placement_strategy"]["default"] == "cluster"


def test_instances_follow_the_variables_and_share_the_placement_group(resource_map: dict[tuple[str, str], Any]) -> None:
    broker = resource_map[("aws_instance", "broker")]
    client = resource_map[("aws_instance", "client")]
    assert broker["count"] == "${var.broker_count}"
    assert broker["instance_type"] == "${var.broker_instance_type}"
    assert client["count"] == "${var.client_count}"
    assert client["instance_type"] == "${var.client_instance_type}"
    for instance in (broker, client):
        assert instance["placement_group"] == "${aws_placement_group.cluster.id}"
        assert instance["subnet_id"] == "${aws_subnet.main.id}"
        assert instance["vpc_security_group_ids"] == ["${aws_security_group.cluster.id}"]
    assert resource_map[("aws_placement_group", "cluster")]["strategy"] == "${var.placement_strategy}"


def test_network_has_one_subnet_and_an_internet_route(resource_map: dict[tuple[str, str], Any]) -> None:
    assert [name for kind, name in resource_map if kind == "aws_subnet"] == ["main"]
    assert resource_map[("aws_vpc", "main")]["cidr_block"] == "${var.vpc_cidr}"
    route = resource_map[("aws_route_table", "public")]["route"]
    routes = route if isinstance(route, list) else [route]
    assert routes[0]["gateway_id"] == "${aws_internet_gateway.main.id}"


def test_outputs_give_every_address_the_inventory_needs(root_documents: list[dict[str, Any]]) -> None:
    outputs = blocks(root_documents, "output")
    assert outputs["broker_public_ips"]["value"] == "${aws_instance.broker[*].public_ip}"
    assert outputs["broker_private_ips"]["value"] == "${aws_instance.broker[*].private_ip}"
    assert outputs["client_public_ips"]["value"] == "${aws_instance.client[*].public_ip}"
    assert outputs["client_private_ips"]["value"] == "${aws_instance.client[*].private_ip}"
    assert outputs["ansible_inventory"]["value"] == "${module.inventory.content}"
    for name, body in outputs.items():
        assert body.get("description"), f"output {name} has no description"


def test_inventory_module_gets_every_attribute_its_template_uses(root_documents: list[dict[str, Any]]) -> None:
    call = blocks(root_documents, "module")["inventory"]
    assert call["source"] == "./modules/inventory"
    template = (TERRAFORM_DIR / "modules" / "inventory" / "inventory.ini.tftpl").read_text()
    for group in ("broker", "client"):
        used = set(re.findall(r"\$\{" + group + r"\.(\w+)\}", template))
        assert used, f"the template uses no {group} attribute"
        for attribute in used:
            assert f"{attribute} =" in call[group + "s"], f"inventory.tf does not pass {group}.{attribute}"


def test_inventory_is_written_where_ansible_looks(root_documents: list[dict[str, Any]]) -> None:
    local_file = resources(root_documents)[("local_file", "ansible_inventory")]
    assert local_file["content"] == "${module.inventory.content}"
    assert "/../ansible/inventory.ini" in local_file["filename"]
    assert "inventory = inventory.ini" in (ANSIBLE_DIR / "ansible.cfg").read_text()


def test_inventory_groups_match_the_playbooks_hosts() -> None:
    template = (TERRAFORM_DIR / "modules" / "inventory" / "inventory.ini.tftpl").read_text()
    groups = set(re.findall(r"^\[(\w+)\]$", template, flags=re.MULTILINE))
    assert groups == {"brokers", "clients"}
    patterns: set[str] = set()
    for playbook in PLAYBOOKS:
        for play in yaml.safe_load((ANSIBLE_DIR / playbook).read_text()):
            patterns.add(play["hosts"])
    referenced = {re.sub(r"\[\d+\]$", "", pattern) for pattern in patterns} - {"all", "localhost"}
    assert referenced == groups
