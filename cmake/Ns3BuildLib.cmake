# ns-3's module declarations, build_lib() and build_lib_example(), for the modules under
# src/, so that a module folder's CMakeLists.txt is the one an ns-3 source tree reads
# when the folder is dropped into its contrib/ (ns-3 >= 3.36 builds with CMake and
# defines these functions itself; there, ${libcore} ... ${libsctp} name its targets).
#
# Here they map to this project's build: every module goes into libtransportlab.so
# (transportlab_module), its TEST_SOURCES into libtransportlab-tests.so, and an example
# (examples/CMakeLists.txt, build_lib_example) becomes an executable installed next to
# the library as transportlab/bin/<name>. ${lib<module>} is ns3w::<module> for the
# ns3 wheel's modules (Ns3Wheel.cmake) and the transportlab target for ours.
#
# Only the arguments these modules use are supported: LIBNAME, SOURCE_FILES,
# HEADER_FILES, LIBRARIES_TO_LINK, TEST_SOURCES; NAME, SOURCE_FILES, LIBRARIES_TO_LINK.

# ${lib<module>} of our own modules (the folder names under src/), set before any
# module's CMakeLists.txt is read so that one module may link another.
function(transportlab_declare_modules)
  file(GLOB _lists "${CMAKE_SOURCE_DIR}/src/*/CMakeLists.txt")
  foreach(_list IN LISTS _lists)
    get_filename_component(_dir "${_list}" DIRECTORY)
    get_filename_component(_name "${_dir}" NAME)
    set(lib${_name} transportlab PARENT_SCOPE)
  endforeach()
endfunction()

function(build_lib)
  cmake_parse_arguments(BLIB "IGNORE_PCH" "LIBNAME"
                        "SOURCE_FILES;HEADER_FILES;LIBRARIES_TO_LINK;TEST_SOURCES" ${ARGN})
  if(NOT BLIB_LIBNAME)
    message(FATAL_ERROR "build_lib: LIBNAME is required")
  endif()
  # Our modules all live in the one library: only the wheel's libraries are linked.
  set(_links "")
  foreach(_lib IN LISTS BLIB_LIBRARIES_TO_LINK)
    if(NOT _lib STREQUAL "transportlab")
      list(APPEND _links ${_lib})
    endif()
  endforeach()
  transportlab_module(
    NAME ${BLIB_LIBNAME}
    SOURCES ${BLIB_SOURCE_FILES}
    HEADERS ${BLIB_HEADER_FILES}
    LIBRARIES_TO_LINK ${_links}
    TEST_SOURCES ${BLIB_TEST_SOURCES})
  # As in ns-3: the module's examples, if it has any (they see BLIB_LIBNAME).
  if(EXISTS "${CMAKE_CURRENT_SOURCE_DIR}/examples/CMakeLists.txt")
    add_subdirectory(examples)
  endif()
endfunction()

function(build_lib_example)
  cmake_parse_arguments(BLIB_EXAMPLE "IGNORE_PCH" "NAME"
                        "SOURCE_FILES;HEADER_FILES;LIBRARIES_TO_LINK" ${ARGN})
  add_executable(${BLIB_EXAMPLE_NAME} ${BLIB_EXAMPLE_SOURCE_FILES})
  # The parent module (${lib${BLIB_LIBNAME}}, i.e. transportlab) and what it names.
  target_link_libraries(${BLIB_EXAMPLE_NAME} PRIVATE transportlab ${BLIB_EXAMPLE_LIBRARIES_TO_LINK})
  target_compile_options(${BLIB_EXAMPLE_NAME} PRIVATE -Wall -Wextra -Wno-unused-parameter)
  set_target_properties(${BLIB_EXAMPLE_NAME} PROPERTIES
    INSTALL_RPATH "$ORIGIN/../lib:$ORIGIN/../../ns3/lib64")
  install(TARGETS ${BLIB_EXAMPLE_NAME} RUNTIME DESTINATION transportlab/bin)
  set_property(GLOBAL APPEND PROPERTY TRANSPORTLAB_EXAMPLES ${BLIB_EXAMPLE_NAME})
endfunction()
