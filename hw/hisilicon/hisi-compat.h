/*
 * What of QEMU's API we use changed between the QEMU versions we build
 * with: the paths of the headers that moved (for `#include HISI_..._H`)
 * and the calls whose signature changed, each as the version being built
 * has it. The models build unchanged on every version patches/README.md
 * lists; when a newer QEMU changes another part we use, it gets a version
 * test here and nowhere else.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_HISILICON_HISI_COMPAT_H
#define HW_HISILICON_HISI_COMPAT_H

/* QEMU_VERSION_MAJOR and _MINOR come from config-host.h, via osdep.h. */
#define HISI_QEMU_AT_LEAST(major, minor) \
    (QEMU_VERSION_MAJOR > (major) || \
     (QEMU_VERSION_MAJOR == (major) && QEMU_VERSION_MINOR >= (minor)))

/* 10.1 moved the memory API from exec/ to system/. */
#if HISI_QEMU_AT_LEAST(10, 1)
#define HISI_MEMORY_H "system/memory.h"
#define HISI_ADDRESS_SPACES_H "system/address-spaces.h"
#else
#define HISI_MEMORY_H "exec/memory.h"
#define HISI_ADDRESS_SPACES_H "exec/address-spaces.h"
#endif

/*
 * 11.0 moves these to hw/core/, hw/qdev-core.h as hw/core/qdev.h, and
 * leaves nothing at the old paths. Not built here: Debian serves no 11.x
 * source yet.
 */
#if HISI_QEMU_AT_LEAST(11, 0)
#define HISI_QDEV_CORE_H "hw/core/qdev.h"
#define HISI_QDEV_PROPERTIES_H "hw/core/qdev-properties.h"
#define HISI_SYSBUS_H "hw/core/sysbus.h"
#define HISI_IRQ_H "hw/core/irq.h"
#define HISI_BOARDS_H "hw/core/boards.h"
#define HISI_PLATFORM_BUS_H "hw/core/platform-bus.h"
#define HISI_REGISTERFIELDS_H "hw/core/registerfields.h"
#else
#define HISI_QDEV_CORE_H "hw/qdev-core.h"
#define HISI_QDEV_PROPERTIES_H "hw/qdev-properties.h"
#define HISI_SYSBUS_H "hw/sysbus.h"
#define HISI_IRQ_H "hw/irq.h"
#define HISI_BOARDS_H "hw/boards.h"
#define HISI_PLATFORM_BUS_H "hw/platform-bus.h"
#define HISI_REGISTERFIELDS_H "hw/registerfields.h"
#endif

/*
 * 10.1 made the class data of TypeInfo.class_init const, and gave
 * qdev_add_vm_change_state_handler() a handler that returns an error
 * (NULL for none) before the opaque pointer.
 */
#if HISI_QEMU_AT_LEAST(10, 1)
typedef const void HisiClassData;
#define hisi_add_vm_change_state_handler(dev, cb, opaque) \
    qdev_add_vm_change_state_handler(dev, cb, NULL, opaque)
#else
typedef void HisiClassData;
#define hisi_add_vm_change_state_handler(dev, cb, opaque) \
    qdev_add_vm_change_state_handler(dev, cb, opaque)
#endif

#endif
