// SPDX-License-Identifier: GPL-2.0
/*
 * Raises a kernel fault when loaded, so that the harness test can check that
 * scripts/run-guest fails a run whose kernel log holds one:
 *   insmod ktest_fault.ko fault=warn   a WARNING
 *   insmod ktest_fault.ko fault=oops   an oops (NULL pointer dereference)
 *   insmod ktest_fault.ko fault=slab   a write past a kmalloc'ed object, which
 *                                      the slab debugger (slub_debug=FZPU)
 *                                      reports when the object is freed
 */
#include <linux/bug.h>
#include <linux/compiler.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>

static char *fault = "warn";
module_param(fault, charp, 0444);
MODULE_PARM_DESC(fault, "warn, oops or slab");

static int __init ktest_fault_init(void)
{
	if (!strcmp(fault, "oops")) {
		int *nowhere = NULL;

		return READ_ONCE(*nowhere);
	}
	if (!strcmp(fault, "warn")) {
		WARN(1, "ktest_fault: deliberate warning for the harness test\n");
		return 0;
	}
	if (!strcmp(fault, "slab")) {
		char *object = kmalloc(32, GFP_KERNEL);

		if (!object)
			return -ENOMEM;
		/*
		 * One byte into the red zone, through a pointer the compiler
		 * cannot size (FORTIFY_SOURCE would stop a sized write first).
		 */
		OPTIMIZER_HIDE_VAR(object);
		object[32] = 0x5a;
		kfree(object);
		return 0;
	}
	return -EINVAL;
}

static void __exit ktest_fault_exit(void)
{
}

module_init(ktest_fault_init);
module_exit(ktest_fault_exit);

MODULE_DESCRIPTION("Deliberate kernel faults for the hisi-uncore-emu harness test");
MODULE_LICENSE("GPL");
