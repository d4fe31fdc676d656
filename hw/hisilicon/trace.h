#include "trace/trace-hw_hisilicon.h"
