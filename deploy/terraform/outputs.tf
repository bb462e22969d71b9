output "broker_public_ips" {
  description = "Public IPs of the broker nodes, in broker-1..N order (SSH from admin_cidr only)."
  value       = aws_instance.broker[*].public_ip
}

output "broker_private_ips" {
  description = "Private IPs of the broker nodes; clients and brokers talk over these."
  value       = aws_instance.broker[*].private_ip
}

output "client_public_ips" {
  description = "Public IPs of the client nodes, in client-1..N order."
  value       = aws_instance.client[*].public_ip
}

output "client_private_ips" {
  description = "Private IPs of the client nodes (omb-tx workers listen on 8080/8081 there)."
  value       = aws_instance.client[*].private_ip
}

output "bootstrap_servers" {
  description = "Kafka bootstrap list (private addresses) for driver YAMLs."
  value       = join(",", [for ip in aws_instance.broker[*].private_ip : "${ip}:9092"])
}

output "ansible_inventory" {
  description = "The Ansible inventory text (groups 'brokers' and 'clients'), also written to inventory_path."
  value       = module.inventory.content
}

output "inventory_path" {
  description = "Where the Ansible inventory was written."
  value       = local_file.ansible_inventory.filename
}
