from service.demo import main

main()
