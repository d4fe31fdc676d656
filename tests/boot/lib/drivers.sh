# SPDX-License-Identifier: GPL-2.0-or-later
# The driver set a suite runs with (scripts/run-guest --drivers), and loading
# and unloading its modules with their dependencies. Source it.

DRIVERS=$(cat /etc/driver-set)
DRIVER_DIR=/lib/modules/hisi/$DRIVERS

# driver_deps NAME: the modules NAME needs, from the set's deps file
driver_deps() {
	sed -n "s/^$1: *//p" "$DRIVER_DIR/deps"
}

# driver_load NAME: insmod NAME after the modules it needs
driver_load() {
	local dep
	for dep in $(driver_deps "$1"); do
		[ -d "/sys/module/$dep" ] || insmod "$DRIVER_DIR/$dep.ko" || return 1
	done
	insmod "$DRIVER_DIR/$1.ko"
}

# driver_unload NAME: rmmod NAME, then the modules it needed that nothing
# else uses any more
driver_unload() {
	local dep deps
	deps=$(driver_deps "$1")
	rmmod "$1" || return 1
	for dep in $deps; do
		[ "$(cat "/sys/module/$dep/refcnt" 2>/dev/null)" = 0 ] && rmmod "$dep"
	done
	return 0
}
