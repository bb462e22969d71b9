# Renders the Ansible inventory from node addresses. No provider: pure template rendering, so the
# tests can run it with sample data.

variable "brokers" {
  description = "Broker nodes: name, public_ip, private_ip and node_id (the KRaft node id, 1-based)."
  type = list(object({
    name       = string
    public_ip  = string
    private_ip = string
    node_id    = number
  }))
}

variable "clients" {
  description = "Client nodes: name, public_ip and private_ip. The first one coordinates runs."
  type = list(object({
    name       = string
    public_ip  = string
    private_ip = string
  }))
}

variable "ssh_user" {
  description = "SSH login user for every node."
  type        = string
}

variable "ssh_private_key_path" {
  description = "Private key for Ansible, or empty to rely on the SSH agent."
  type        = string
  default     = ""
}

output "content" {
  description = "Inventory in INI format with the groups 'brokers' and 'clients'."
  value = templatefile("${path.module}/inventory.ini.tftpl", {
    brokers              = var.brokers
    clients              = var.clients
    ssh_user             = var.ssh_user
    ssh_private_key_path = var.ssh_private_key_path
  })
}
