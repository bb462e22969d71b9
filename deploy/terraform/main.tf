# Network, firewall and machines for one benchmark cluster: a VPC with one public subnet in one
# availability zone, every node in one cluster placement group (the seeds' "same AZ" setup).

data "aws_availability_zones" "available" {
  state = "available"
}

data "aws_ami" "ubuntu" {
  count       = var.ami_id == "" ? 1 : 0
  most_recent = true
  owners      = [var.ami_owner]

  filter {
    name   = "name"
    values = [var.ami_name_filter]
  }

  filter {
    name   = "virtualization-type"
    values = ["hvm"]
  }
}

locals {
  availability_zone = var.availability_zone != "" ? var.availability_zone : data.aws_availability_zones.available.names[0]
  ami_id            = var.ami_id != "" ? var.ami_id : one(data.aws_ami.ubuntu[*].id)
  key_name          = var.key_name != "" ? var.key_name : one(aws_key_pair.operator[*].key_name)

  # Ports that only the cluster's own nodes may reach. Port 9092 serves both Apache Kafka and
  # Redpanda; only one broker system runs at a time.
  intra_vpc_ports = {
    kafka_api = {
      port        = 9092
      description = "Kafka API (Apache Kafka or Redpanda) from inside the VPC"
    }
    kafka_controller = {
      port        = 9093
      description = "Apache Kafka KRaft controller listener from inside the VPC"
    }
    redpanda_rpc = {
      port        = 33145
      description = "Redpanda internal RPC from inside the VPC"
    }
    redpanda_admin = {
      port        = 9644
      description = "Redpanda admin API from inside the VPC"
    }
    worker_http = {
      port        = 8080
      description = "omb-tx benchmark-worker HTTP API from inside the VPC"
    }
    worker_stats = {
      port        = 8081
      description = "omb-tx benchmark-worker stats endpoint from inside the VPC"
    }
  }
}

resource "aws_vpc" "main" {
  cidr_block           = var.vpc_cidr
  enable_dns_support   = true
  enable_dns_hostnames = true

  tags = {
    Name = "${var.name_prefix}-vpc"
  }
}

resource "aws_internet_gateway" "main" {
  vpc_id = aws_vpc.main.id

  tags = {
    Name = "${var.name_prefix}-igw"
  }
}

resource "aws_subnet" "main" {
  vpc_id                  = aws_vpc.main.id
  cidr_block              = var.subnet_cidr
  availability_zone       = local.availability_zone
  map_public_ip_on_launch = true

  tags = {
    Name = "${var.name_prefix}-subnet"
  }
}

resource "aws_route_table" "public" {
  vpc_id = aws_vpc.main.id

  # Outbound internet access: the nodes download packages, the JDK, Kafka and Redpanda.
  route {
    cidr_block = "0.0.0.0/0"
    gateway_id = aws_internet_gateway.main.id
  }

  tags = {
    Name = "${var.name_prefix}-public"
  }
}

resource "aws_route_table_association" "main" {
  subnet_id      = aws_subnet.main.id
  route_table_id = aws_route_table.public.id
}

resource "aws_security_group" "cluster" {
  name        = "${var.name_prefix}-cluster"
  description = "omb-tx benchmark nodes: SSH from the admin network, everything else only from the VPC"
  vpc_id      = aws_vpc.main.id

  tags = {
    Name = "${var.name_prefix}-cluster"
  }
}

resource "aws_vpc_security_group_ingress_rule" "ssh_from_admin" {
  security_group_id = aws_security_group.cluster.id
  description       = "SSH from the operator's network only"
  cidr_ipv4         = var.admin_cidr
  ip_protocol       = "tcp"
  from_port         = 22
  to_port           = 22
}

resource "aws_vpc_security_group_ingress_rule" "intra_vpc" {
  for_each = local.intra_vpc_ports

  security_group_id = aws_security_group.cluster.id
  description       = each.value.description
  cidr_ipv4         = var.vpc_cidr
  ip_protocol       = "tcp"
  from_port         = each.value.port
  to_port           = each.value.port
}

resource "aws_vpc_security_group_egress_rule" "all_outbound" {
  security_group_id = aws_security_group.cluster.id
  description       = "Outbound to anywhere (package mirrors, Kafka and Redpanda downloads)"
  cidr_ipv4         = "0.0.0.0/0"
  ip_protocol       = "-1"
}

resource "aws_placement_group" "cluster" {
  name     = "${var.name_prefix}-placement"
  strategy = var.placement_strategy
}

resource "aws_key_pair" "operator" {
  count      = var.key_name == "" ? 1 : 0
  key_name   = "${var.name_prefix}-operator"
  public_key = file(pathexpand(var.public_key_path))
}

resource "aws_instance" "broker" {
  count = var.broker_count

  ami                    = local.ami_id
  instance_type          = var.broker_instance_type
  subnet_id              = aws_subnet.main.id
  vpc_security_group_ids = [aws_security_group.cluster.id]
  placement_group        = aws_placement_group.cluster.id
  key_name               = local.key_name

  root_block_device {
    volume_type = "gp3"
    volume_size = var.root_volume_size_gb
  }

  metadata_options {
    http_tokens = "required"
  }

  tags = {
    Name = format("%s-broker-%d", var.name_prefix, count.index + 1)
    Role = "broker"
  }
}

resource "aws_instance" "client" {
  count = var.client_count

  ami                    = local.ami_id
  instance_type          = var.client_instance_type
  subnet_id              = aws_subnet.main.id
  vpc_security_group_ids = [aws_security_group.cluster.id]
  placement_group        = aws_placement_group.cluster.id
  key_name               = local.key_name

  root_block_device {
    volume_type = "gp3"
    volume_size = var.root_volume_size_gb
  }

  metadata_options {
    http_tokens = "required"
  }

  tags = {
    Name = format("%s-client-%d", var.name_prefix, count.index + 1)
    Role = "client"
  }
}
