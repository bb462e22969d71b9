# Every knob of the benchmark cluster. The defaults reproduce the seeds' topology:
# 3 brokers on i3.large (NVMe instance store) plus one client node, in one availability zone.

variable "region" {
  description = "AWS region to deploy into."
  type        = string
  default     = "us-west-2"
}

variable "availability_zone" {
  description = "Availability zone for the subnet (all nodes share it, as in the seeds). Empty picks the region's first available zone."
  type        = string
  default     = ""
}

variable "name_prefix" {
  description = "Prefix for resource names and Name tags, so several clusters can live in one account."
  type        = string
  default     = "omb-tx"

  validation {
    condition     = can(regex("^[a-z][a-z0-9-]{1,30}$", var.name_prefix))
    error_message = "name_prefix must be 2-31 characters: lower-case letters, digits and '-', starting with a letter."
  }
}

variable "admin_cidr" {
  description = "The only network allowed to reach the nodes over SSH, e.g. your workstation's public address as a /32. Required: there is deliberately no default."
  type        = string

  validation {
    condition     = can(cidrnetmask(var.admin_cidr)) && try(tonumber(split("/", var.admin_cidr)[1]) >= 8, false)
    error_message = "admin_cidr must be an IPv4 CIDR with a prefix of /8 or longer (e.g. 203.0.113.7/32); 0.0.0.0/0 would open SSH to the whole internet."
  }
}

variable "vpc_cidr" {
  description = "CIDR of the benchmark VPC. Broker and worker ports are reachable only from inside it."
  type        = string
  default     = "10.42.0.0/16"

  validation {
    condition     = can(cidrnetmask(var.vpc_cidr))
    error_message = "vpc_cidr must be an IPv4 CIDR such as 10.42.0.0/16."
  }
}

variable "subnet_cidr" {
  description = "CIDR of the single public subnet that holds every node; must lie inside vpc_cidr."
  type        = string
  default     = "10.42.1.0/24"

  validation {
    condition     = can(cidrnetmask(var.subnet_cidr))
    error_message = "subnet_cidr must be an IPv4 CIDR such as 10.42.1.0/24."
  }
}

variable "broker_count" {
  description = "Number of broker nodes. Kafka runs KRaft with every broker also a controller, so keep it odd (3 in the seeds)."
  type        = number
  default     = 3

  validation {
    condition     = var.broker_count >= 1 && var.broker_count <= 9 && var.broker_count % 2 == 1
    error_message = "broker_count must be an odd number from 1 to 9 (each broker is also a KRaft controller voter)."
  }
}

variable "broker_instance_type" {
  description = "EC2 type of the broker nodes. The default i3.large has one NVMe instance-store disk (/dev/nvme0n1), formatted XFS at /mnt/data."
  type        = string
  default     = "i3.large"
}

variable "client_count" {
  description = "Number of client nodes running omb-tx workers; the first one also coordinates runs. OMB's distributed mode needs 2 or more."
  type        = number
  default     = 1

  validation {
    condition     = var.client_count >= 1 && var.client_count <= 16
    error_message = "client_count must be between 1 and 16."
  }
}

variable "client_instance_type" {
  description = "EC2 type of the client (worker) nodes."
  type        = string
  default     = "c5.2xlarge"
}

variable "ami_id" {
  description = "AMI for every node. Empty selects the newest Canonical Ubuntu image matching ami_name_filter, which is what the Ansible roles are written for."
  type        = string
  default     = ""
}

variable "ami_name_filter" {
  description = "Name filter used to look up the AMI when ami_id is empty."
  type        = string
  default     = "ubuntu/images/hvm-ssd-gp3/ubuntu-noble-24.04-amd64-server-*"
}

variable "ami_owner" {
  description = "Owner account of the looked-up AMI (099720109477 is Canonical)."
  type        = string
  default     = "099720109477"
}

variable "ssh_user" {
  description = "Login user of the AMI; written into the Ansible inventory."
  type        = string
  default     = "ubuntu"
}

variable "key_name" {
  description = "Name of an existing EC2 key pair to install on the nodes. Leave empty to create one from public_key_path instead."
  type        = string
  default     = ""
}

variable "public_key_path" {
  description = "Path of an SSH public key to upload as a new key pair when key_name is empty."
  type        = string
  default     = "~/.ssh/omb-tx.pub"
}

variable "ssh_private_key_path" {
  description = "Private key Ansible should use, written into the inventory: the pair of public_key_path (deploy/README.md creates it with ssh-keygen -t ed25519 -f ~/.ssh/omb-tx). Empty leaves it to your SSH agent or ~/.ssh/config."
  type        = string
  default     = "~/.ssh/omb-tx"
}

variable "placement_strategy" {
  description = "Strategy of the placement group holding every node; 'cluster' keeps them on a low-latency network segment."
  type        = string
  default     = "cluster"

  validation {
    condition     = contains(["cluster", "spread", "partition"], var.placement_strategy)
    error_message = "placement_strategy must be cluster, spread or partition."
  }

  # AWS runs at most 7 instances per availability zone in a spread placement group, and every node is in it.
  validation {
    condition     = var.placement_strategy != "spread" || var.broker_count + var.client_count <= 7
    error_message = "A spread placement group holds at most 7 instances per availability zone: broker_count + client_count must be 7 or fewer with placement_strategy = \"spread\"."
  }
}

variable "root_volume_size_gb" {
  description = "Size of each node's root EBS volume (gp3), in GiB. Broker data lives on the instance store, not here."
  type        = number
  default     = 30

  validation {
    condition     = var.root_volume_size_gb >= 8
    error_message = "root_volume_size_gb must be at least 8."
  }
}

variable "inventory_path" {
  description = "Where to write the Ansible inventory. Empty writes deploy/ansible/inventory.ini next to the playbooks."
  type        = string
  default     = ""
}

variable "extra_tags" {
  description = "Additional tags for every resource (e.g. an owner or cost centre)."
  type        = map(string)
  default     = {}
}
