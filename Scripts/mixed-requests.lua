-- wrk script: requests the paths listed in the file named by $PATHS, each thread from its own
-- random starting point, in order, wrapping around. Used by Scripts/measure-mixed.sh.
local paths = {}
for line in io.lines(os.getenv("PATHS")) do paths[#paths + 1] = line end

local counter = 0
function setup(thread)
    counter = counter + 1
    thread:set("id", counter)
end

local index
function init(args)
    math.randomseed(id * 7919)
    index = math.random(#paths)
end

function request()
    index = index % #paths + 1
    return wrk.format("GET", paths[index])
end
