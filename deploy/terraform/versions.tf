terraform {
  required_version = ">= 1.9.0" # validations that refer to other variables

  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = ">= 5.40, < 7.0"
    }
    local = {
      source  = "hashicorp/local"
      version = "~> 2.5"
    }
  }
}

provider "aws" {
  region = var.region

  default_tags {
    tags = merge(
      {
        Project   = "omb-tx"
        ManagedBy = "terraform"
      },
      var.extra_tags,
    )
  }
}
