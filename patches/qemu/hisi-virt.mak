# hisi-uncore-emu: the virt board, the HiSilicon uncore models, and the
# common PCIe models users put behind root ports to build real topologies.

CONFIG_ARM_VIRT=y
# QEMU 10.2's virt machine and NVMe call into CXL and the SPDM socket
# without selecting them, and --without-default-devices leaves out what
# is only on by default: named here (CXL with the PCIe expander bridge it
# depends on and the CXL memory device its mailbox calls), or the link
# fails.
CONFIG_PXB=y
CONFIG_CXL=y
CONFIG_CXL_MEM_DEVICE=y
CONFIG_SPDM_SOCKET=y

# Ports, switches and bridges
CONFIG_PCIE_PORT=y
CONFIG_XIO3130=y
CONFIG_PCI_BRIDGE=y
CONFIG_PCIE_PCI_BRIDGE=y

# Endpoints
CONFIG_NVME_PCI=y
CONFIG_E1000E_PCI_EXPRESS=y
CONFIG_VIRTIO_PCI=y
CONFIG_VIRTIO_BLK=y
CONFIG_VIRTIO_NET=y
CONFIG_VIRTIO_RNG=y
CONFIG_VIRTIO_SERIAL=y
CONFIG_PCI_TESTDEV=y
CONFIG_EDU=y

# HiSilicon uncore models
CONFIG_HISI_PTT=y
CONFIG_HISI_PCIE_PMU=y
CONFIG_HNS3_PMU=y
CONFIG_ARM_CCN=y
