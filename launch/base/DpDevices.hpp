#pragma once
// How many devices DP-style training drives from rank 0, which its plan's --dp-devices is held to.

namespace gpuscale::launch {

// The devices DP drives from rank 0 at most: the GPUs it sees; on the cpu backend its node's ranks,
// at least 2. Local: call it on rank 0.
int dp_device_limit(bool cpu_backend, int local_size);

}  // namespace gpuscale::launch
