# The Ansible inventory is rendered by a provider-free child module (so the tests can render it
# with sample addresses) and written next to the playbooks.

module "inventory" {
  source = "./modules/inventory"

  brokers = [
    for index, broker in aws_instance.broker : {
      name       = format("broker-%d", index + 1)
      public_ip  = broker.public_ip
      private_ip = broker.private_ip
      node_id    = index + 1
    }
  ]

  clients = [
    for index, client in aws_instance.client : {
      name       = format("client-%d", index + 1)
      public_ip  = client.public_ip
      private_ip = client.private_ip
    }
  ]

  ssh_user             = var.ssh_user
  ssh_private_key_path = var.ssh_private_key_path
}

resource "local_file" "ansible_inventory" {
  filename        = var.inventory_path != "" ? var.inventory_path : "${path.module}/../ansible/inventory.ini"
  content         = module.inventory.content
  file_permission = "0644"
}
