#include "judge/GpuFloors.hpp"

namespace gpuscale::judge {

bool below_floor(double value, const results::Floor& floor) { return !(value >= floor.value); }

}  // namespace gpuscale::judge
