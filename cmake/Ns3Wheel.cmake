# Imported targets for the libraries of the `ns3` wheel.
# The wheel's own ns3Config.cmake and *.pc files point at the wheel builder's paths
# (/usr/include/glib-2.0, /usr/lib64/libgsl.so, ...) and fail at generate time, so we
# declare IMPORTED targets ourselves.
find_package(Python COMPONENTS Interpreter REQUIRED)

# Locate <site-packages>/ns3 without importing ns3.ns (that import costs ~10 s).
execute_process(
  COMMAND "${Python_EXECUTABLE}" -c
    "import importlib.util as u; s = u.find_spec('ns3'); print(list(s.submodule_search_locations)[0])"
  OUTPUT_VARIABLE NS3_WHEEL_DIR
  OUTPUT_STRIP_TRAILING_WHITESPACE
  COMMAND_ERROR_IS_FATAL ANY)
message(STATUS "ns3 wheel: ${NS3_WHEEL_DIR}")

file(GLOB _ns3_libs "${NS3_WHEEL_DIR}/lib64/libns3.*-core.so")
if(NOT _ns3_libs)
  message(FATAL_ERROR "no libns3.*-core.so below ${NS3_WHEEL_DIR}/lib64: is ns3==3.44.post0 installed?")
endif()
list(GET _ns3_libs 0 _core)
string(REGEX MATCH "libns3\\.([0-9.]+)-core\\.so$" _m "${_core}")
set(NS3_WHEEL_VERSION "${CMAKE_MATCH_1}")

# Compile definitions the wheel itself was built with (read off its ns3Config.cmake).
set(NS3_WHEEL_DEFINITIONS NS3_LOG_ENABLE NS3_ASSERT_ENABLE NS3_BUILD_PROFILE_RELEASE)

# ns3w::<module> for every library in the wheel, also as ${lib<module>} (the variable
# ns-3's build_lib() declarations name it by: ${libcore}, ${libinternet}, ...).
file(GLOB _all_ns3_libs "${NS3_WHEEL_DIR}/lib64/libns3.${NS3_WHEEL_VERSION}-*.so")
foreach(_lib IN LISTS _all_ns3_libs)
  string(REGEX MATCH "libns3\\.[0-9.]+-(.+)\\.so$" _m "${_lib}")
  set(_mod "${CMAKE_MATCH_1}")
  set(lib${_mod} ns3w::${_mod})
  add_library(ns3w::${_mod} SHARED IMPORTED)
  set_target_properties(ns3w::${_mod} PROPERTIES
    IMPORTED_LOCATION "${_lib}"
    INTERFACE_INCLUDE_DIRECTORIES "${NS3_WHEEL_DIR}/include"
    INTERFACE_COMPILE_DEFINITIONS "${NS3_WHEEL_DEFINITIONS}")
endforeach()
