# SPDX-License-Identifier: GPL-2.0
# ghostswap: build, boot and test. Kernel trees and all build outputs live in $(GHOSTSWAP_CACHE).
#
#   make check [T=GROUP[/TEST]]   build whatever is missing, run the tests (tests/run.sh)
#   make demo                     boot the guest and run the demo (./run-qemu.sh)
#   make bench                    ghostswap vs zram vs zswap + swap partition (bench/run.sh, to bench-results/)
#   make kernel [VARIANT=...]     build the guest kernel(s) (default: release and debug)
#   make module [VARIANT=...]     build ghostswap.ko in the cache (default variant: release)
#   make rootfs                   build the Debian guest root file system
#   make modules | clean          plain out-of-tree module build in the repo against $(KDIR)
#   make distclean                also drop the built kernels and rootfs (keeps kernel source and ccache)

GHOSTSWAP_CACHE ?= $(HOME)/.cache/ghostswap
export GHOSTSWAP_CACHE
VARIANT ?=
KDIR ?= $(GHOSTSWAP_CACHE)/build/$(or $(VARIANT),release)/obj
T ?=
MAKEFLAGS += --no-print-directory

.PHONY: default help modules clean kernel module progs rootfs demo check bench distclean

default: module

help:
	@sed -n '2,11s/^# \{0,1\}//p' Makefile

# Standard out-of-tree conventions (objects land in module/; the cached `module` target keeps the repo clean).
modules:
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

kernel:
	@for v in $(or $(VARIANT),release debug); do scripts/build-kernel.sh $$v || exit 1; done

module:
	@scripts/build-module.sh $(or $(VARIANT),release)

progs:
	@scripts/build-progs.sh

rootfs:
	@rootfs/build.sh

demo:
	@./run-qemu.sh $(if $(VARIANT),--kernel $(VARIANT))

check:
	@tests/run.sh $(T)

bench:
	@bench/run.sh

clean:
	@if [ -f $(KDIR)/Makefile ]; then $(MAKE) -C $(KDIR) M=$(CURDIR) clean; fi
	rm -rf $(GHOSTSWAP_CACHE)/build/*/ext $(GHOSTSWAP_CACHE)/build/progs $(GHOSTSWAP_CACHE)/runs

distclean: clean
	rm -rf $(GHOSTSWAP_CACHE)/build $(GHOSTSWAP_CACHE)/rootfs
