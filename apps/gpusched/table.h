// TextTable and fixed for command output: the report library's, in the command line's namespace.
#pragma once

#include "gpusched/report/text_table.h"

namespace gpusched::cli {

using report::fixed;
using report::TextTable;

}  // namespace gpusched::cli
