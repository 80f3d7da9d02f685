// TextTable and fixed for command output: the report library's, in the command line's namespace.
#pragma once

#include "gpusched/charts/text_table.h"

namespace gpusched::cli {

using charts::fixed;
using charts::TextTable;

}  // namespace gpusched::cli
