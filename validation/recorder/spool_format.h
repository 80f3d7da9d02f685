// The recorder's spool: one tab-separated line per CUPTI record, written by the injection library and read by gpusched-record.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace gpusched::record {

/// The first field of a spool line: what the record is. Fields after it, in order:
namespace spool {
/// K start end device context stream correlation registers static_smem dynamic_smem
///   grid_x grid_y grid_z block_x block_y block_z cluster_x cluster_y cluster_z graph_id name
constexpr char kKernel = 'K';
/// M start end device context stream correlation bytes copy_kind src_kind dst_kind
constexpr char kMemcpy = 'M';
/// S start end device context stream correlation bytes memory_kind value
constexpr char kMemset = 'S';
/// R / D start end process thread correlation cbid name   (runtime / driver API call)
constexpr char kRuntime = 'R';
constexpr char kDriver = 'D';
/// Y start end sync_type context stream correlation event
constexpr char kSync = 'Y';
/// E correlation context stream event device device_timestamp
constexpr char kEvent = 'E';
/// P context stream priority flag correlation   (stream creation; priority as a signed integer)
constexpr char kStream = 'P';
/// V id name total_global_mem cc_major cc_minor max_threads_per_block max_threads_per_sm regs_per_block
///   regs_per_sm warp_size smem_per_block smem_per_sm sm_count smem_per_block_optin   (optin -1: unknown)
constexpr char kDevice = 'V';
/// X dropped   (records CUPTI dropped for lack of buffer space)
constexpr char kDropped = 'X';
/// N text   (a note: an activity kind this CUPTI cannot record, an error)
constexpr char kNote = 'N';
}  // namespace spool

/// `text` with backslash, tab, newline and carriage return escaped (\\ \t \n \r): one spool field.
std::string spool_escape(std::string_view text);

/// The inverse of spool_escape (an unknown escape keeps its character).
std::string spool_unescape(std::string_view field);

/// The fields of one spool line (split at tabs; fields are still escaped).
std::vector<std::string> spool_fields(std::string_view line);

}  // namespace gpusched::record
